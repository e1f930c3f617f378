/// An RFC 6901 JSON Pointer: a path of reference tokens, written as `/a/b/0` with `~` escaped
/// as `~0` and `/` as `~1`. The empty pointer `""` refers to the whole document.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
  /// The unescaped reference tokens, outermost first.
  public var tokens: [String]

  /// A pointer to the whole document.
  public static let root = JSONPointer(tokens: [])

  public init(tokens: [String]) {
    self.tokens = tokens
  }

  /// Parses the escaped form, `""` or `/`-prefixed tokens.
  public init(parsing text: String) throws(JSONPatchError) {
    guard !text.isEmpty else {
      self = .root
      return
    }
    guard text.hasPrefix("/") else { throw .invalidPointer(text) }
    var tokens: [String] = []
    for escaped in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      guard let token = Self.unescape(escaped) else { throw .invalidPointer(text) }
      tokens.append(token)
    }
    self.tokens = tokens
  }

  /// The pointer to a member or element of the value this pointer refers to.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// The escaped form: `""` for the root, else `/` before each token.
  public var description: String {
    var text = ""
    for token in tokens {
      text += "/"
      for character in token.unicodeScalars {
        switch character {
        case "~": text += "~0"
        case "/": text += "~1"
        default: text.unicodeScalars.append(character)
        }
      }
    }
    return text
  }

  private static func unescape(_ escaped: Substring.UTF8View.SubSequence) -> String? {
    var bytes: [UInt8] = []
    var iterator = escaped.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "~") else {
        bytes.append(byte)
        continue
      }
      switch iterator.next() {
      case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
      case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
      default: return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension JSONPointer: Codable {
  public init(from decoder: any Decoder) throws {
    try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
