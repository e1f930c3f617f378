import Foundation

/// RFC 4648 §5 base64url without padding: the alphabet of tokens and ids in URLs and cookies.
enum Base64URL {
  static func encode(_ bytes: some Collection<UInt8>) -> String {
    var text = Data(bytes).base64EncodedString()
    text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    while text.last == "=" { text.removeLast() }
    return text
  }

  /// The bytes `text` encodes, or `nil` unless it is the canonical unpadded encoding of them.
  static func decode(_ text: String) -> [UInt8]? {
    guard text.utf8.allSatisfy(isAlphabet) else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    guard let data = Data(base64Encoded: standard) else { return nil }
    let bytes = [UInt8](data)
    // Unused low bits must be zero, so every byte string has exactly one spelling.
    guard encode(bytes) == text else { return nil }
    return bytes
  }

  static func isAlphabet(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default:
      false
    }
  }
}
