import Foundation

import StoreHostJSON

/// The JSON clients got before direct encoding: Foundation's `JSONEncoder`, this project's
/// parser, then the serializer of that time (kept here as `LegacySerializer`, with one
/// change since: integers above `Int64.max` are written exactly, as `JSONEncoder` writes
/// them). Every direct-encoding test compares against it byte for byte.
public enum LegacyPipeline {
  public static func encode(_ value: some Encodable) throws -> [UInt8] {
    var serializer = LegacySerializer()
    serializer.write(try JSONValue(parsing: JSONEncoder().encode(value)))
    return serializer.bytes
  }

  public static func text(_ value: some Encodable) throws -> String {
    String(decoding: try encode(value), as: UTF8.self)
  }
}

/// Writes a ``JSONValue`` as compact JSON: no whitespace, object keys sorted by their UTF-8
/// bytes, `/` and non-ASCII characters written as they are, control characters escaped.
struct LegacySerializer {
  private(set) var bytes: [UInt8] = []

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let bool): append(bool ? "true" : "false")
    case .int(let int): append(String(int))
    case .uint(let uint): append(String(uint))
    case .double(let double): append(double.isFinite ? String(double) : "null")
    case .string(let string): writeString(string)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted(by: LegacySerializer.utf8Order).enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        write(members[key]!)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Byte-wise order, which unlike `String`'s `<` does not depend on Unicode normalization.
  static func utf8Order(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
  }

  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  private mutating func writeString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): append("\\\"")
      case UInt8(ascii: "\\"): append("\\\\")
      case 0x0A: append("\\n")
      case 0x0D: append("\\r")
      case 0x09: append("\\t")
      case ..<0x20:
        append("\\u00")
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
