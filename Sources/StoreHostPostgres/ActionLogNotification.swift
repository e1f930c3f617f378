import StoreHost

/// What processes announce on ``PostgresSchema/logChannel`` for `?log=1` streams across
/// processes:
///
/// - `watch <session> <process> 1` (or `0`): a stream on that process watches the session's
///   actions (or no longer does); repeated every ``ActionWatches/renewal`` while it lasts;
/// - `action <session> <JSON>`: the session's owner ran an action, whose `action` event is
///   the JSON (left out, `{"omitted":"too large"}`, when the payload would pass
///   ``SessionNotification/maxPayloadBytes``).
enum ActionLogNotification: Equatable, Sendable {
  case watch(SessionID, process: String, watching: Bool)
  case action(SessionID, data: [UInt8])

  /// The event announced instead of an action too large for a payload.
  static let omitted = Array(#"{"omitted":"too large"}"#.utf8)

  var payload: String {
    switch self {
    case .watch(let id, let process, let watching):
      return "watch \(id) \(process) \(watching ? 1 : 0)"
    case .action(let id, let data):
      let head = "action \(id) "
      let fits = head.utf8.count + data.count <= SessionNotification.maxPayloadBytes
      return head + String(decoding: fits ? data : Self.omitted, as: UTF8.self)
    }
  }

  /// Reads a payload; `nil` when it is not one of ours.
  init?(payload: String) {
    let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let id = SessionID(String(parts[1])) else { return nil }
    switch parts[0] {
    case "action":
      self = .action(id, data: Array(parts[2].utf8))
    case "watch":
      let rest = parts[2].split(separator: " ")
      guard rest.count == 2, rest[1] == "0" || rest[1] == "1" else { return nil }
      self = .watch(id, process: String(rest[0]), watching: rest[1] == "1")
    default:
      return nil
    }
  }
}
