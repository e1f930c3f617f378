/// A request target split into path and query (RFC 9112 §3.2): origin-form
/// (`/a?b`), absolute-form (`http://host/a?b`, path kept) or asterisk-form (`*`).
struct RequestTarget: Equatable {
  var path: String
  var query: String?

  /// `nil` for authority-form or anything else that is not a path.
  init?(_ target: String) {
    // The common case, an origin-form path alone, is the target itself.
    if target.utf8.first == UInt8(ascii: "/")
      && !target.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
    {
      path = target
      query = nil
      return
    }
    var rest = Substring(target)
    if target == "*" {
      path = "*"
      query = nil
      return
    }
    if !rest.hasPrefix("/") {
      let lower = rest.lowercased()
      guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
        let schemeEnd = rest.range(of: "://")
      else { return nil }
      let afterScheme = rest[schemeEnd.upperBound...]
      rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
      if rest.hasPrefix("?") { rest = "/" + rest }
    }
    if let mark = rest.firstIndex(of: "?") {
      path = String(rest[..<mark])
      query = String(rest[rest.index(after: mark)...])
    } else {
      path = String(rest)
      query = nil
    }
    if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
  }
}
