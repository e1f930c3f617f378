/// RFC 4648 §5 base64url without padding: the alphabet of tokens and ids in URLs and cookies.
enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var output: [UInt8] = []
    output.reserveCapacity((input.count * 4 + 2) / 3)
    var index = 0
    while index + 3 <= input.count {
      let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      for shift in [18, 12, 6, 0] as [UInt32] { output.append(alphabet[Int(group >> shift & 63)]) }
      index += 3
    }
    switch input.count - index {
    case 2:
      let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
      for shift in [18, 12, 6] as [UInt32] { output.append(alphabet[Int(group >> shift & 63)]) }
    case 1:
      let group = UInt32(input[index]) << 16
      for shift in [18, 12] as [UInt32] { output.append(alphabet[Int(group >> shift & 63)]) }
    default:
      break
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes, or `nil` unless it is the canonical unpadded encoding of them.
  static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    // A lone last character carries fewer than 8 bits: no byte string is spelled that way.
    guard input.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count * 3 / 4)
    var group: UInt32 = 0
    var bits = 0
    for character in input {
      guard let value = sextet(character) else { return nil }
      group = group << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
        group &= (1 << UInt32(bits)) - 1
      }
    }
    // Unused low bits must be zero, so every byte string has exactly one spelling.
    guard group == 0 else { return nil }
    return output
  }

  static func isAlphabet(_ byte: UInt8) -> Bool { sextet(byte) != nil }

  private static func sextet(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
