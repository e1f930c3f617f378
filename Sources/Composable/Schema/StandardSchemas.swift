import Foundation
import StoreHostJSON

// The schemas of the standard library's and Foundation's `Codable` types, as `JSONEncoder`
// writes them with its default strategies.

extension Bool: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "boolean"] }
}

extension String: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "string"] }
}

extension Double: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "number"] }
}

extension Float: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "number"] }
}

extension Decimal: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "number"] }
}

/// An integer between `Integer`'s bounds.
private func integerSchema<Integer: FixedWidthInteger>(_: Integer.Type) -> JSONValue {
  let maximum = Int64(exactly: Integer.max).map(JSONValue.int) ?? .uint(UInt64(Integer.max))
  return ["type": "integer", "minimum": .int(Int64(Integer.min)), "maximum": maximum]
}

extension Int: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension Int8: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension Int16: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension Int32: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension Int64: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension UInt: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension UInt8: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension UInt16: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension UInt32: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension UInt64: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { integerSchema(Self.self) }
}

extension Date: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "number", "description": "seconds since 2001-01-01 00:00:00 UTC"]
  }
}

extension UUID: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "string", "format": "uuid"] }
}

extension URL: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "string", "format": "uri"] }
}

extension Data: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "string", "contentEncoding": "base64"]
  }
}

extension JSONValue: JSONSchemaDescribable {
  /// Any JSON.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { [:] }
}

extension Optional: JSONSchemaDescribable {
  /// The wrapped value or `null` (as a property, see ``JSONSchemaContext/object(_:)``).
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["anyOf": [context.schema(of: Wrapped.self), ["type": "null"]]]
  }
}

extension Array: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "array", "items": context.schema(of: Element.self)]
  }
}

extension ContiguousArray: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "array", "items": context.schema(of: Element.self)]
  }
}

extension Set: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "array", "items": context.schema(of: Element.self), "uniqueItems": true]
  }
}

extension Dictionary: JSONSchemaDescribable {
  /// An object for `String`, `Int` and `CodingKeyRepresentable` keys; otherwise, as
  /// `JSONEncoder` writes it, an array of keys and values one after the other.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    let value = context.schema(of: Value.self)
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      return ["type": "object", "additionalProperties": value]
    }
    return ["type": "array", "items": ["anyOf": [context.schema(of: Key.self), value]]]
  }
}
