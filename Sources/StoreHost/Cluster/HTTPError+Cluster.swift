import HTTP

/// The errors a clustered process adds to the session API.
extension HTTPError {
  /// The shared database cannot be reached: nothing was applied, so retrying is safe.
  static func databaseUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "database_unavailable",
      message: "The session database cannot be reached; nothing was applied. Try again shortly.",
      headers: ["Retry-After": "1"])
  }

  /// A forwarded request reached a process that no longer owns the session.
  static func sessionMoved() -> HTTPError {
    HTTPError(
      status: 503, code: "session_moved", message: "This process no longer owns the session; try again.",
      headers: ["Retry-After": "1"])
  }

  /// The session's owner does not answer and its lease has not run out yet.
  static func ownerUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "owner_unavailable",
      message: "The process running this session does not answer; it is being taken over. Try again.",
      headers: ["Retry-After": "1"])
  }

  /// The session's owner stopped while handling a forwarded request: it may have been applied.
  static func ownerLost() -> HTTPError {
    HTTPError(
      status: 503, code: "owner_lost",
      message: "The process running this session stopped while handling the request; it may or may not have been applied. Read the session's version before retrying.",
      headers: ["Retry-After": "1"])
  }
}
