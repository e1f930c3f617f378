/// Reads one JSON document value by value, straight from its bytes, with the parser's
/// own steps: as strict as ``JSONValue/init(parsing:maxDepth:)``, but a reader that knows
/// what it expects (a generated decoder) builds no tree. Objects it reads member by member
/// must check their own names for repeats (``readMemberName(after:)`` does).
///
/// ```swift
/// let tag = try body.withUnsafeBytes { bytes in
///   var reader = JSONReader(bytes)
///   return try reader.readString()
/// }
/// ```
public struct JSONReader: ~Copyable {
  private var parser: JSONParser

  /// What a value is, from its first byte.
  public enum Kind: Sendable {
    case object, array, string, number, bool, null
  }

  /// A reader at the start of `bytes`, which must outlive it.
  public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONValue.defaultMaxDepth) {
    parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
  }

  /// A place the reader was at, for ``compactBytes(since:)``.
  public struct Mark: Sendable {
    fileprivate let offset: Int
    fileprivate let skippedWhitespace: Int
  }

  /// Where the reader is.
  public var mark: Mark { Mark(offset: parser.offset, skippedWhitespace: parser.skippedWhitespace) }

  /// What the reader read since `mark`, whole values, as compact JSON: the same bytes without
  /// the whitespace between tokens, copied whole when the reader passed over none.
  public func compactBytes(since mark: Mark) -> [UInt8] {
    parser.compactBytes(from: mark.offset, passedWhitespace: parser.skippedWhitespace != mark.skippedWhitespace)
  }

  /// Whether nothing but whitespace is left.
  public mutating func isAtEnd() -> Bool {
    parser.skipWhitespace()
    return parser.current == nil
  }

  /// The kind of the next value, `nil` at the end of the bytes or before a byte that
  /// starts no value.
  public mutating func peek() -> Kind? {
    parser.skipWhitespace()
    guard let byte = parser.current else { return nil }
    switch byte {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: return nil
    }
  }

  /// The next value, a string.
  public mutating func readString() throws(JSONParseError) -> String {
    guard peek() == .string else { throw mismatch() }
    return try parser.parseString()
  }

  /// The next value, `null`.
  public mutating func readNull() throws(JSONParseError) {
    guard peek() == .null else { throw mismatch() }
    try parser.parseLiteral("null")
  }

  /// The next value, whatever it is, as a tree.
  public mutating func readValue() throws(JSONParseError) -> JSONValue {
    try parser.parseValue()
  }

  /// Enters the next value, an object; read its members with ``readMemberName(after:)``.
  public mutating func beginObject() throws(JSONParseError) {
    guard peek() == .object else { throw mismatch() }
    try parser.enterContainer()
  }

  /// The name of the object's next member, positioned at its value; `nil` after the
  /// closing brace. `names` holds the names read so far, to refuse a repeated one.
  public mutating func readMemberName(after names: inout [String]) throws(JSONParseError) -> String? {
    parser.skipWhitespace()
    if !names.isEmpty {
      if parser.current == UInt8(ascii: "}") { return endObject() }
      try parser.expect(UInt8(ascii: ","))
      parser.skipWhitespace()
    } else if parser.current == UInt8(ascii: "}") {
      return endObject()
    }
    let offset = parser.offset
    guard parser.current == UInt8(ascii: "\"") else { throw mismatch() }
    let name = try parser.parseString()
    guard !names.contains(name) else { throw JSONParseError(reason: .duplicateKey(name), offset: offset) }
    names.append(name)
    parser.skipWhitespace()
    try parser.expect(UInt8(ascii: ":"))
    return name
  }

  /// Enters the next value, an array; read its elements after ``hasNextElement(first:)``.
  public mutating func beginArray() throws(JSONParseError) {
    guard peek() == .array else { throw mismatch() }
    try parser.enterContainer()
  }

  /// Whether the array has another element (after its comma, unless it is the `first`);
  /// `false` after the closing bracket.
  public mutating func hasNextElement(first: Bool) throws(JSONParseError) -> Bool {
    parser.skipWhitespace()
    if parser.current == UInt8(ascii: "]") {
      parser.offset += 1
      parser.depth -= 1
      return false
    }
    if !first { try parser.expect(UInt8(ascii: ",")) }
    return true
  }

  private mutating func endObject() -> String? {
    parser.offset += 1
    parser.depth -= 1
    return nil
  }

  /// An error at the current byte: not what the caller expected there.
  private func mismatch() -> JSONParseError {
    parser.failure(parser.current.map { .unexpectedByte($0) } ?? .unexpectedEnd)
  }
}
