/// A route's path, such as `/api/sessions/{id}/events`, split into literal and captured
/// segments.
struct PathPattern: Sendable {
  private enum Segment: Sendable {
    case literal(Substring)
    case parameter(String)
  }

  private let segments: [Segment]

  init(_ pattern: String) {
    segments = Self.segments(of: pattern).map { segment in
      if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
        return .parameter(String(segment.dropFirst().dropLast()))
      }
      return .literal(segment)
    }
  }

  /// The non-empty segments of a path (`/a//b/` -> `a`, `b`).
  static func segments(of path: String) -> [Substring] {
    path.split(separator: "/")
  }

  /// The captured parameters if `path` matches, percent-decoded; `nil` otherwise.
  func match(_ path: [Substring]) -> [String: String]? {
    guard path.count == segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (segment, actual) in zip(segments, path) {
      switch segment {
      case .literal(let literal):
        guard literal == actual else { return nil }
      case .parameter(let name):
        guard let decoded = PercentDecoding.decode(String(actual)) else { return nil }
        parameters[name] = decoded
      }
    }
    return parameters
  }
}
