/// Decimal digits of whole numbers, written straight into a byte buffer, and the form of
/// doubles.
package enum JSONNumberText {
  /// How a double is written: as an integer, or as text.
  enum Form {
    case integer(Int64)
    case text(String)
  }

  /// `JSONEncoder`'s form of `double` (its description without a trailing `.0`) as this
  /// project's parser reads it back: whole values Swift writes as `123.0` are integers,
  /// everything else keeps its description. `nil` when not finite.
  static func form(of double: Double) -> Form? {
    guard double.isFinite else { return nil }
    if double.rounded(.towardZero) == double && double.magnitude <= 9_007_199_254_740_992 {
      return .integer(Int64(double))
    }
    let text = double.description
    return text.hasSuffix(".0") ? .integer(Int64(double)) : .text(text)
  }

  package static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDecimal(value.magnitude, to: &bytes)
  }

  static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var remaining = value
      var start = 20
      while remaining > 0 {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
        remaining /= 10
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }
}

/// JSON string literals and JSON Pointer tokens, byte by byte.
enum JSONStringText {
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Whether `byte` cannot appear as itself inside a JSON string.
  @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// Appends `"utf8"` with the escapes of ``JSONWriter/write(_:)-(String)``.
  static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    appendEscaped(utf8, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends `utf8` escaped for the inside of a JSON string, copying runs that need no
  /// escape at once.
  static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    var runStart = 0
    for index in utf8.indices where needsEscape(utf8[index]) {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      appendEscape(for: utf8[index], to: &bytes)
      runStart = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }

  private static func appendEscape(for byte: UInt8, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
      bytes.append(hexDigits[Int(byte >> 4)])
      bytes.append(hexDigits[Int(byte & 0x0F)])
    }
  }

  /// Appends `token` as an RFC 6901 reference token: `~` as `~0`, `/` as `~1`.
  static func appendPointerToken(_ token: String, to bytes: inout [UInt8]) {
    for byte in token.utf8 {
      switch byte {
      case UInt8(ascii: "~"): bytes.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "0")])
      case UInt8(ascii: "/"): bytes.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "1")])
      default: bytes.append(byte)
      }
    }
  }

  /// Byte-wise order, which unlike `String`'s `<` does not depend on Unicode normalization:
  /// the order of object members in every JSON text the project writes.
  static func utf8Order(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
  }
}
