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

  /// The bytes of a JSON object, `{...}`: the session's `"id"` first when multiplexed, then
  /// the members `writeMembers` appends (without braces); made in one buffer, with room for
  /// `capacity` bytes of members.
  func object(capacity: Int, _ writeMembers: (inout [UInt8]) -> Void) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(capacity + Self.objectOverhead)
    bytes.append(UInt8(ascii: "{"))
    if case .multiplexed(let id) = self {
      bytes.append(contentsOf: #""id":""#.utf8)
      bytes.append(contentsOf: id.rawValue.utf8)
      bytes.append(contentsOf: #"","#.utf8)
    }
    writeMembers(&bytes)
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  /// Room for the braces and a session's `"id"` member.
  private static let objectOverhead = 64
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
