/// A route's path, such as `/api/sessions/{id}/events`, split into literal and captured
/// segments.
struct PathPattern: Sendable {
  private enum Segment: Sendable {
    case literal([UInt8])
    case parameter(String)
  }

  private let segments: [Segment]

  init(_ pattern: String) {
    segments = pattern.split(separator: "/").map { segment in
      if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
        return .parameter(String(segment.dropFirst().dropLast()))
      }
      return .literal(Array(segment.utf8))
    }
  }

  /// The same pattern in arrays and strings of its own.
  func copied() -> PathPattern {
    PathPattern(
      segments: segments.map { segment in
        switch segment {
        case .literal(let bytes): .literal(bytes.map { $0 })
        case .parameter(let name): .parameter(String(decoding: name.utf8.map { $0 }, as: UTF8.self))
        }
      })
  }

  private init(segments: [Segment]) {
    self.segments = segments
  }

  /// How many segments a matching path has.
  var segmentCount: Int { segments.count }

  /// How many non-empty segments `path` has (`/a//b/` has two).
  static func segmentCount(of path: String) -> Int {
    var count = 0
    var previous = slash
    for byte in path.utf8 {
      if byte != slash && previous == slash { count += 1 }
      previous = byte
    }
    return count
  }

  /// The captured parameters if `path` matches, percent-decoded; `nil` otherwise. Only
  /// non-empty segments count (`/a//b/` is `a`, `b`); nothing is allocated for a path
  /// that does not match, or that matches a pattern without parameters.
  func match(_ path: String) -> [String: String]? {
    var path = path
    return path.withUTF8 { bytes in
      var parameters: [String: String] = [:]
      var matched = 0
      var start = 0
      while true {
        while start < bytes.count && bytes[start] == slash { start += 1 }
        guard start < bytes.count else { break }
        var end = start
        while end < bytes.count && bytes[end] != slash { end += 1 }
        guard matched < segments.count else { return nil }
        let actual = UnsafeBufferPointer(rebasing: bytes[start..<end])
        switch segments[matched] {
        case .literal(let literal):
          guard literal.elementsEqual(actual) else { return nil }
        case .parameter(let name):
          guard let decoded = PercentDecoding.decode(String(decoding: actual, as: UTF8.self)) else { return nil }
          parameters[name] = decoded
        }
        matched += 1
        start = end
      }
      return matched == segments.count ? parameters : nil
    }
  }
}

private let slash = UInt8(ascii: "/")
