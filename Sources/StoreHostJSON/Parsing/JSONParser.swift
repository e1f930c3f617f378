/// A strict RFC 8259 parser over raw bytes: no comments, no trailing commas, no duplicate keys,
/// and a nesting limit so untrusted input cannot exhaust the stack. ``JSONReader`` reads
/// with the same steps, value by value.
struct JSONParser {
  private let bytes: UnsafeRawBufferPointer
  private let maxDepth: Int
  var offset = 0
  var depth = 0
  /// The whitespace bytes passed over between tokens so far.
  private(set) var skippedWhitespace = 0

  init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// Parses exactly one value, surrounded by optional whitespace.
  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    guard offset == bytes.count else { throw failure(.trailingBytes) }
    return value
  }

  func failure(_ reason: JSONParseError.Reason) -> JSONParseError {
    JSONParseError(reason: reason, offset: offset)
  }

  var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  /// The bytes from `start` to the current offset, which the parser read as whole values,
  /// without the whitespace between their tokens (whitespace in strings is kept); when it
  /// `passedWhitespace` over none since `start`, those bytes as they are.
  func compactBytes(from start: Int, passedWhitespace: Bool) -> [UInt8] {
    let source = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    guard passedWhitespace else { return [UInt8](source) }
    return [UInt8](unsafeUninitializedCapacity: source.count) { compact, count in
      var inString = false
      var escaped = false
      for byte in source {
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
        } else if byte.isJSONWhitespace {
          continue
        } else if byte == UInt8(ascii: "\"") {
          inString = true
        }
        compact[count] = byte
        count += 1
      }
    }
  }

  mutating func skipWhitespace() {
    while let byte = current, byte.isJSONWhitespace {
      offset += 1
      skippedWhitespace += 1
    }
  }

  mutating func expect(_ byte: UInt8) throws(JSONParseError) {
    guard let found = current else { throw failure(.unexpectedEnd) }
    guard found == byte else { throw failure(.unexpectedByte(found)) }
    offset += 1
  }

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    guard let byte = current else { throw failure(.unexpectedEnd) }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try parseLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw failure(.unexpectedByte(byte))
    }
  }

  mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
    let utf8 = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    for expected in utf8 { try expect(expected) }
  }

  mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    guard depth <= maxDepth else { throw failure(.tooDeep(limit: maxDepth)) }
    offset += 1
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      offset += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      let keyOffset = offset
      guard current == UInt8(ascii: "\"") else { throw current.map { failure(.unexpectedByte($0)) } ?? failure(.unexpectedEnd) }
      let key = try parseString()
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      let value = try parseValue()
      guard members.updateValue(value, forKey: key) == nil else {
        throw JSONParseError(reason: .duplicateKey(key), offset: keyOffset)
      }
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      try expect(UInt8(ascii: "}"))
      return .object(members)
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      offset += 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue())
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      try expect(UInt8(ascii: "]"))
      return .array(elements)
    }
  }

  mutating func parseString() throws(JSONParseError) -> String {
    offset += 1  // the opening quote
    let start = offset
    // Fast path: no escapes, so the bytes between the quotes are the string.
    var isASCII = true
    while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
      guard byte >= 0x20 else { throw failure(.controlCharacterInString) }
      if byte >= 0x80 { isASCII = false }
      offset += 1
    }
    guard let stop = current else { throw failure(.unexpectedEnd) }
    if stop == UInt8(ascii: "\"") {
      offset += 1
      // ASCII is valid UTF-8: nothing to check, and nothing for decoding to repair.
      guard isASCII else { return try decodeUTF8(bytes[start..<offset - 1], at: start) }
      return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1]), as: UTF8.self)
    }
    var scalars = Array(bytes[start..<offset])
    while true {
      guard let byte = current else { throw failure(.unexpectedEnd) }
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return try decodeUTF8(scalars[...], at: start)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &scalars)
      case ..<0x20:
        throw failure(.controlCharacterInString)
      default:
        scalars.append(byte)
        offset += 1
      }
    }
  }

  private func decodeUTF8<Bytes: Collection<UInt8>>(_ utf8: Bytes, at start: Int) throws(JSONParseError) -> String {
    guard let string = String(validating: utf8, as: UTF8.self) else {
      throw JSONParseError(reason: .invalidUTF8, offset: start)
    }
    return string
  }

  private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
    offset += 1  // the backslash
    guard let byte = current else { throw failure(.unexpectedEnd) }
    offset += 1
    let simple: UInt8? =
      switch byte {
      case UInt8(ascii: "\""): 0x22
      case UInt8(ascii: "\\"): 0x5C
      case UInt8(ascii: "/"): 0x2F
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      utf8.append(simple)
      return
    }
    guard byte == UInt8(ascii: "u") else {
      offset -= 1
      throw failure(.invalidEscape)
    }
    var scalar = UInt32(try parseHex4())
    if (0xD800...0xDBFF).contains(scalar) {
      // A high surrogate must be followed by an escaped low surrogate.
      guard current == UInt8(ascii: "\\") else { throw failure(.invalidEscape) }
      offset += 1
      guard current == UInt8(ascii: "u") else { throw failure(.invalidEscape) }
      offset += 1
      let low = UInt32(try parseHex4())
      guard (0xDC00...0xDFFF).contains(low) else { throw failure(.invalidEscape) }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let unicode = Unicode.Scalar(scalar) else { throw failure(.invalidEscape) }
    utf8.append(contentsOf: unicode.utf8)
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw failure(.unexpectedEnd) }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(.invalidEscape)
      }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }

  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    if current == UInt8(ascii: "-") { offset += 1 }
    guard let first = current, first.isDigit else { throw failure(.invalidNumber) }
    offset += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    var isInteger = true
    if current == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      guard current?.isDigit == true else { throw failure(.invalidNumber) }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      offset += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
      guard current?.isDigit == true else { throw failure(.invalidNumber) }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .int(integer) }
    if isInteger, let integer = UInt64(text) { return .uint(integer) }
    guard let double = Double(text), double.isFinite else {
      throw JSONParseError(reason: .invalidNumber, offset: start)
    }
    return .double(double)
  }

  private mutating func skipDigits() {
    while current?.isDigit == true { offset += 1 }
  }
}

extension UInt8 {
  fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
  /// Space, line feed, carriage return or tab: what JSON allows between tokens.
  fileprivate var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
