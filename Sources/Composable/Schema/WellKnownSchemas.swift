import Foundation
import StoreHostJSON

/// The schemas and placeholders of the types JSON has words for.
enum WellKnownSchemas {
  static func schema(of type: Any.Type) -> JSONValue? {
    switch type {
    case is String.Type, is Character.Type: ["type": "string"]
    case is Bool.Type: ["type": "boolean"]
    case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
      is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
      ["type": "integer"]
    case is Double.Type, is Float.Type, is Decimal.Type, is Date.Type: ["type": "number"]
    case is UUID.Type: ["type": "string", "format": "uuid"]
    case is URL.Type: ["type": "string", "format": "uri"]
    case is Data.Type: ["type": "string", "contentEncoding": "base64"]
    case is JSONValue.Type: [:]
    case let enumeration as any (CaseIterable & Encodable).Type: cases(of: enumeration)
    default: nil
    }
  }

  static func placeholder<T>(of type: T.Type) -> T? {
    let value: Any? =
      switch type {
      case is String.Type: ""
      case is Character.Type: Character(" ")
      case is Bool.Type: false
      case is Int.Type: 0 as Int
      case is Int8.Type: 0 as Int8
      case is Int16.Type: 0 as Int16
      case is Int32.Type: 0 as Int32
      case is Int64.Type: 0 as Int64
      case is UInt.Type: 0 as UInt
      case is UInt8.Type: 0 as UInt8
      case is UInt16.Type: 0 as UInt16
      case is UInt32.Type: 0 as UInt32
      case is UInt64.Type: 0 as UInt64
      case is Double.Type: 0 as Double
      case is Float.Type: 0 as Float
      case is Decimal.Type: Decimal(0)
      case is Date.Type: Date(timeIntervalSince1970: 0)
      case is UUID.Type: UUID(0)
      case is URL.Type: URL(string: "about:blank")!
      case is Data.Type: Data()
      case is JSONValue.Type: JSONValue.null
      case let enumeration as any CaseIterable.Type: firstCase(of: enumeration)
      default: nil
      }
    return value as? T
  }

  /// An enum of plain cases (`String` raw values, say): its cases' JSON.
  private static func cases<Enumeration: CaseIterable & Encodable>(of type: Enumeration.Type) -> JSONValue? {
    let values = type.allCases.compactMap { try? JSONValue(parsing: JSONEncoding.encode($0)) }
    return values.isEmpty ? nil : ["enum": .array(values)]
  }

  private static func firstCase<Enumeration: CaseIterable>(of type: Enumeration.Type) -> Any? {
    type.allCases.first
  }
}
