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
  public init(parsing data: Data, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
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

  private func serializedBytes() -> [UInt8] {
    var serializer = JSONSerializer()
    serializer.write(self)
    return serializer.bytes
  }
}
