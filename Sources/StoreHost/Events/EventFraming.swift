/// How a client's events are framed: on a stream of one session's events, or on a stream
/// that carries several sessions' events (`GET /api/events`).
enum EventFraming: Equatable, Sendable {
  /// `data: {"version", ...}` with `id: <version>`, so `Last-Event-ID` resumes.
  case alone
  /// `data: {"id": "<session>", "version", ...}` and no `id:` field: one stream holds many
  /// sessions' versions, so each event names its session and the client resumes each itself.
  case multiplexed(SessionID)

  /// The SSE `id:` of an event for `version`.
  func eventID(_ version: Int) -> String? {
    switch self {
    case .alone: String(version)
    case .multiplexed: nil
    }
  }

  /// `object` (a JSON object's bytes, `{...}`) with the session's `"id"` first when multiplexed.
  func data(_ object: [UInt8]) -> [UInt8] {
    switch self {
    case .alone: object
    case .multiplexed(let id): Array(#"{"id":"\#(id)","#.utf8) + object.dropFirst()
    }
  }

  /// The parts of `{` `members` `}` with the session's `"id"` first when multiplexed: for
  /// frames written from parts in one pass.
  func dataParts(opening members: String) -> [UInt8] {
    switch self {
    case .alone: Array("{\(members)".utf8)
    case .multiplexed(let id): Array(#"{"id":"\#(id)",\#(members)"#.utf8)
    }
  }
}

/// A value made at most once for clients on their own streams and once for clients on
/// streams of several sessions. The clients of one fanout all watch the same session, so
/// one multiplexed value serves them all.
struct FramedOnce<Value> {
  private var alone: Value?
  private var multiplexed: Value?

  mutating func value(for framing: EventFraming, make: () -> Value) -> Value {
    switch framing {
    case .alone:
      if let alone { return alone }
      let value = make()
      alone = value
      return value
    case .multiplexed:
      if let multiplexed { return multiplexed }
      let value = make()
      multiplexed = value
      return value
    }
  }
}
