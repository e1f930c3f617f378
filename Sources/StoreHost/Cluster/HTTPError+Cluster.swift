import HTTP

/// The errors a clustered process adds to the session API. Each says whether the request
/// was applied: every one but ``outcomeUnknown()`` means it was not.
extension HTTPError {
  /// The shared database cannot be reached: nothing was applied, so retrying is safe.
  static func databaseUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "database_unavailable",
      message: "The session database cannot be reached; nothing was applied. Try again shortly.",
      headers: ["Retry-After": "1"])
  }

  /// This process no longer owns the session (another took it over, or it was handed over
  /// while the request was on its way): nothing was applied.
  static func sessionMoved() -> HTTPError {
    HTTPError(
      status: 503, code: "session_moved",
      message: "This process no longer owns the session; nothing was applied. Try again.",
      headers: ["Retry-After": "1"])
  }

  /// The session's owner does not answer and its lease has not run out yet: nothing was applied.
  static func ownerUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "owner_unavailable",
      message: "The process running this session does not answer; it is being taken over. Nothing was applied; try again.",
      headers: ["Retry-After": "1"])
  }

  /// The request's outcome is unknown: its owner stopped, or the database connection broke,
  /// after the request reached them, and it could not be settled in time.
  static func outcomeUnknown() -> HTTPError {
    HTTPError(
      status: 503, code: "outcome_unknown",
      message: "The request may or may not have been applied: its session's process or database failed meanwhile. Send it again with the same Idempotency-Key (it is then applied once), or read the session's version.",
      headers: ["Retry-After": "1"])
  }

  /// Too many requests wait to be forwarded to their sessions' owners: nothing was applied.
  static func forwardingBusy() -> HTTPError {
    HTTPError(
      status: 503, code: "forwarding_busy",
      message: "Too many requests are waiting for the processes that run their sessions; nothing was applied. Try again shortly.",
      headers: ["Retry-After": "1"])
  }

  /// The codes of answers after which a request with an `Idempotency-Key` may be sent again
  /// at once, through placement: the session left the process that answered, or the
  /// request's outcome is unknown (the key settles it).
  static let retryableInClusterCodes: Set<String> = ["session_moved", "outcome_unknown"]

  /// Whether this answer is one of ``retryableInClusterCodes``.
  var isRetryableInCluster: Bool { Self.retryableInClusterCodes.contains(code) }

  /// Whether this answer is `session_moved`: the session left the process while the request
  /// was served, before anything of it became durable, so it may be sent again without a key.
  var isNothingApplied: Bool { code == Self.sessionMoved().code }
}
