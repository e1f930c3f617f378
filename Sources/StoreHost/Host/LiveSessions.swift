import HTTP

/// The sessions a host holds in memory, and those on their way between memory and storage:
/// a request for a session that is being brought back or put to rest waits for that move,
/// so each happens once and no request reads storage before a rest's final save is in it.
struct LiveSessions<State: Codable & Equatable & Sendable, Action: Codable & Sendable> {
  var live: [SessionID: Session<State, Action>] = [:]
  var moving: [SessionID: Task<SessionMove, Never>] = [:]
}

/// How a session's move between memory and storage ended.
enum SessionMove: Sendable {
  /// In memory now.
  case broughtBack
  /// At rest in storage now.
  case rested
  /// No such session is stored.
  case notFound
  /// Stored, but this build cannot read it.
  case unreadable
  /// Not brought back: the error to answer.
  case failed(HTTPError)
}
