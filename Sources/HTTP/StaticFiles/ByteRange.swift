/// A single `Range: bytes=…` request (RFC 9110 §14), resolved against a file size.
enum ByteRange: Equatable {
  /// Serve these bytes (inclusive bounds) with 206.
  case satisfiable(ClosedRange<Int>)
  /// No byte of the range exists: 416.
  case unsatisfiable
  /// Absent, malformed, or several ranges: serve the whole file with 200.
  case whole

  init(header: String?, size: Int) {
    guard let header, header.hasPrefix("bytes=") else {
      self = .whole
      return
    }
    let spec = header.dropFirst("bytes=".count).trimmingCharacters()
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
      self = .whole
      return
    }
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    func number(_ text: Substring) -> Int? {
      guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCIIDigit) else { return nil }
      return Int(text)
    }
    if first.isEmpty {
      guard let suffix = number(last) else {
        self = .whole
        return
      }
      self = suffix == 0 || size == 0 ? .unsatisfiable : .satisfiable(max(0, size - suffix)...(size - 1))
      return
    }
    guard let start = number(first) else {
      self = .whole
      return
    }
    let end: Int
    if last.isEmpty {
      end = size - 1
    } else if let value = number(last), value >= start {
      end = min(value, size - 1)
    } else {
      self = .whole
      return
    }
    self = start < size ? .satisfiable(start...end) : .unsatisfiable
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
  fileprivate func trimmingCharacters() -> Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
