/// Percent-decoding of URL components.
enum PercentDecoding {
  /// `text` with `%XX` escapes decoded, or `nil` when an escape is malformed or the result
  /// is not UTF-8.
  static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
    // Nothing to decode (as in most paths): the text is already the string.
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
      return text
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusAsSpace:
        bytes.append(UInt8(ascii: " "))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}
