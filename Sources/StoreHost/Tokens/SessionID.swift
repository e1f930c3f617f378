/// A session's identifier: 128 random bits as 22 base64url characters, safe in URL paths.
public struct SessionID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The identifier as it appears in URLs, tokens and the database.
  public let rawValue: String

  /// The longest identifier accepted from outside, in bytes.
  public static let maxLength = 64

  /// Accepts an identifier from a URL path or a token: 1 to ``maxLength`` base64url
  /// characters, else `nil`.
  public init?(_ rawValue: String) {
    let utf8 = rawValue.utf8
    guard (1...Self.maxLength).contains(utf8.count), utf8.allSatisfy(Base64URL.isAlphabet) else { return nil }
    self.rawValue = rawValue
  }

  /// A fresh identifier with 128 bits from OpenSSL's random generator.
  public static func random() -> SessionID {
    SessionID(unchecked: Base64URL.encode(SecureRandom.bytes(16)))
  }

  private init(unchecked rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let id = SessionID(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a session id")
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
