import Foundation

extension JSONValue {
  /// The deepest nesting of arrays and objects that parsing accepts by default.
  public static let defaultMaxDepth = 256

  /// Parses one JSON document (RFC 8259, strict: no duplicate keys, no trailing bytes).
  ///
  /// - Parameters:
  ///   - data: UTF-8 JSON text.
  ///   - maxDepth: The deepest nesting of arrays and objects accepted, so untrusted input
  ///     cannot exhaust the stack.
  public init(parsing data: some ContiguousBytes, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
    let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { buffer in
      var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
      return Result { () throws(JSONParseError) in try parser.parseDocument() }
    }
    self = try result.get()
  }

  /// Compact JSON bytes with object keys sorted, so equal values give equal bytes.
  public func serialized() -> Data {
    Data(serializedBytes())
  }

  /// Compact JSON text with object keys sorted, so equal values give equal text.
  public var jsonString: String {
    String(decoding: serializedBytes(), as: UTF8.self)
  }

  /// Compact JSON bytes with object keys sorted.
  public func serializedBytes() -> [UInt8] {
    var writer = JSONWriter()
    writeJSON(to: &writer)
    return writer.bytes
  }

  /// The number a JSON text holds, as this project's parser reads it: `12` is an integer,
  /// `1.5`, `1e3` and integers beyond `UInt64` are doubles.
  init(numberText text: String) throws(JSONParseError) {
    self = try JSONValue(parsing: Array(text.utf8))
  }

  /// The number `JSONEncoder` writes for `float` (its description, without a trailing
  /// `.0`), read back as a JSON number.
  init(float: Float) throws {
    guard float.isFinite else {
      throw EncodingError.invalidValue(
        float, EncodingError.Context(codingPath: [], debugDescription: "\(float) is not a JSON number"))
    }
    var text = float.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    try self.init(numberText: text)
  }
}

extension JSONValue: JSONWritable {
  /// Writes the value, object members sorted by their names' UTF-8 bytes; a double as its
  /// shortest round-trip text (`1.0`), or `null` when not finite.
  public func writeJSON(to writer: inout JSONWriter) {
    switch self {
    case .null: writer.writeNull()
    case .bool(let bool): writer.write(bool)
    case .int(let int): writer.write(int)
    case .uint(let uint): writer.write(uint)
    case .double(let double):
      if double.isFinite {
        writer.writeRaw(Array(double.description.utf8))
      } else {
        writer.writeNull()
      }
    case .string(let string): writer.write(string)
    case .array(let elements):
      writer.beginArray()
      for element in elements { element.writeJSON(to: &writer) }
      writer.endArray()
    case .object(let members):
      writer.beginObject()
      for key in members.keys.sorted(by: JSONStringText.utf8Order) {
        writer.key(key)
        members[key]!.writeJSON(to: &writer)
      }
      writer.endObject()
    }
  }
}
