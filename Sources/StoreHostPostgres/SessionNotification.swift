import StoreHost
/// What an owner announces on ``PostgresSchema/sessionChannel`` after each durable save or
/// delete, in the same transaction, so listeners receive them in commit order.
///
/// The payload is `"<id> <version>"`, followed by `" <state JSON>"` when the whole payload
/// fits in PostgreSQL's 8000-byte limit (``maxPayloadBytes``); without the state, a listener
/// reads it from `storehost_sessions`. Version `-1` announces that the session was deleted.
struct SessionNotification: Equatable, Sendable {
  /// Payloads are kept below PostgreSQL's 8000-byte limit with room to spare.
  static let maxPayloadBytes = 7900
  /// The version announcing a deleted session.
  static let deletedVersion = -1

  let id: SessionID
  let version: Int
  /// The state's compact JSON, when it fit in the payload.
  let state: String?

  /// The payload announcing `version` of session `id` with `state`, which is left out when
  /// it does not fit.
  static func payload(id: SessionID, version: Int, state: String) -> String {
    let head = "\(id) \(version)"
    return head.utf8.count + 1 + state.utf8.count <= maxPayloadBytes ? head + " " + state : head
  }

  init(id: SessionID, version: Int, state: String?) {
    self.id = id
    self.version = version
    self.state = state
  }

  /// Reads a payload; `nil` when it is not one of ours.
  init?(payload: String) {
    let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, let id = SessionID(String(parts[0])), let version = Int(parts[1]) else { return nil }
    self.id = id
    self.version = version
    self.state = parts.count == 3 ? String(parts[2]) : nil
  }
}
