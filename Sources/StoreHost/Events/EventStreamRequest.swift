import HTTP

/// What a client asks of a session's event stream: patches or full states, the action log,
/// presence counts, and the version it already has (`Last-Event-ID`, or `?lastEventId=` for
/// a new stream).
struct EventStreamRequest {
  let patches: Bool
  let log: Bool
  let presence: Bool
  let lastEventID: Int?

  init(_ request: Request) {
    patches = request.queryItem("patch") == "1"
    log = request.queryItem("log") == "1"
    presence = request.queryItem("presence") == "1"
    lastEventID = (request.headers["Last-Event-ID"] ?? request.queryItem("lastEventId")).flatMap { Int($0) }
  }

  /// How to watch the session for this request, on a stream of its own.
  var watch: WatchOptions {
    WatchOptions(patches: patches, log: log, presence: presence, framing: .alone, lastEventID: lastEventID)
  }
}

/// How one client watches one session's events.
struct WatchOptions: Sendable {
  var patches: Bool
  var log: Bool
  var presence: Bool
  var framing: EventFraming
  /// The version the client has, if any.
  var lastEventID: Int?
}
