/// Why bytes are not a JSON document ``JSONValue`` accepts, and where that was found.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    case unexpectedEnd
    case unexpectedByte(UInt8)
    case invalidNumber
    case invalidEscape
    case invalidUTF8
    case controlCharacterInString
    case duplicateKey(String)
    case tooDeep(limit: Int)
    case trailingBytes
  }

  public let reason: Reason
  /// The byte offset in the input where the problem was found.
  public let offset: Int

  public var description: String {
    switch reason {
    case .unexpectedEnd: "JSON ends too early at byte \(offset)"
    case .unexpectedByte(let byte): "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
    case .invalidNumber: "invalid number at byte \(offset)"
    case .invalidEscape: "invalid escape sequence at byte \(offset)"
    case .invalidUTF8: "invalid UTF-8 in string at byte \(offset)"
    case .controlCharacterInString: "unescaped control character in string at byte \(offset)"
    case .duplicateKey(let key): "duplicate object key \"\(key)\" at byte \(offset)"
    case .tooDeep(let limit): "JSON nests deeper than \(limit) levels at byte \(offset)"
    case .trailingBytes: "unexpected bytes after the JSON value at byte \(offset)"
    }
  }
}
