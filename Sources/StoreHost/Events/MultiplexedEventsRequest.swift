import HTTP

/// What a client asks of a stream of several sessions' events (`GET /api/events`): the
/// sessions, each as `watch=<ticket>` or `watch=<ticket>.<version>` (the version it already
/// has), and the options of one session's stream (`patch`, `log`, `presence`) for all of them.
struct MultiplexedEventsRequest {
  /// The most sessions one stream may watch: what fits in a request target of 8 KiB.
  static let maxSessions = 64

  /// One watched session as the client named it.
  struct Watch: Equatable {
    /// A watch ticket (``SessionTokenSigner/issueWatchTicket(for:expiresAt:)``), unchecked.
    let ticket: String
    /// The version the client has; it gets only what came after.
    let lastEventID: Int?
  }

  let watches: [Watch]
  let patches: Bool
  let log: Bool
  let presence: Bool

  /// Reads the query, or throws 400 `invalid_watch` when it names no session, more than
  /// ``maxSessions``, or one in another form.
  init(_ request: Request) throws(HTTPError) {
    var watches: [Watch] = []
    for item in request.queryItems where item.name == "watch" {
      let parts = item.value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
      let version = parts.count == 2 ? Int(parts[1]).flatMap { $0 >= 0 ? $0 : nil } : nil
      guard !parts[0].isEmpty, parts.count == 1 || version != nil else {
        throw .invalidWatch("'watch=\(item.value.prefix(120))' is not '<ticket>' or '<ticket>.<version>'.")
      }
      watches.append(Watch(ticket: String(parts[0]), lastEventID: version))
    }
    guard !watches.isEmpty else {
      throw .invalidWatch(
        "Name the sessions to watch, one 'watch=<ticket>' (or '<ticket>.<version>') each; "
          + "POST /api/sessions/{id}/tickets gives a session's ticket.")
    }
    guard watches.count <= Self.maxSessions else {
      throw .invalidWatch("A stream may watch at most \(Self.maxSessions) sessions; open another for the rest.")
    }
    self.watches = watches
    patches = request.queryItem("patch") == "1"
    log = request.queryItem("log") == "1"
    presence = request.queryItem("presence") == "1"
  }
}
