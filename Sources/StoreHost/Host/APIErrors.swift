import HTTP

/// The errors of the session API (the wire protocol article, `Sources/StoreHost/StoreHost.docc/WireProtocol.md`), each with its status and code.
extension HTTPError {
  static func sessionNotFound() -> HTTPError {
    HTTPError(status: 404, code: "session_not_found", message: "No session has this id; it may have ended.")
  }

  static func unauthorized() -> HTTPError {
    HTTPError(
      status: 401, code: "unauthorized",
      message: "Send this session's token as an Authorization Bearer token or in the storehost_token cookie.",
      headers: ["WWW-Authenticate": "Bearer"])
  }

  static func csrfRejected() -> HTTPError {
    HTTPError(
      status: 403, code: "csrf_rejected",
      message: "A cookie-authenticated request must come from this server's own origin.")
  }

  static func unsupportedMediaType() -> HTTPError {
    HTTPError(
      status: 415, code: "unsupported_media_type", message: "The request body must be sent as application/json.")
  }

  /// An action the feature does not accept; the message points at the schema of those it does.
  static func invalidAction(_ message: String) -> HTTPError {
    HTTPError(
      status: 400, code: "invalid_action",
      message: "\(message) (the actions this server accepts: GET /api/schema, $defs.Action)")
  }

  static func payloadTooLarge(_ message: String) -> HTTPError {
    HTTPError(status: 413, code: "payload_too_large", message: message)
  }

  /// 413 `state_too_large` or 500 `state_not_encodable`: the store refused the change the
  /// actions would have made; `applied` of them were applied before, up to `version`.
  static func changeRefused<State>(_ refusal: SessionChanges<State>.Refusal?, applied: Int, version: Int) -> HTTPError {
    let before =
      applied == 0
      ? "the session is unchanged, at version \(version)"
      : "the \(applied) action\(applied == 1 ? "" : "s") before it stayed applied, up to version \(version)"
    switch refusal {
    case .tooLarge(let size, let limit):
      return HTTPError(
        status: 413, code: "state_too_large",
        message: "This action would make the session's state \(size) bytes of JSON, over the limit of \(limit); \(before).")
    case .notEncodable(let reason):
      return HTTPError(
        status: 500, code: "state_not_encodable",
        message: "This action would leave a state that cannot be encoded as JSON (\(reason)); \(before).")
    case nil:
      return HTTPError(status: 413, code: "state_too_large", message: "This action was refused; \(before).")
    }
  }

  static func invalidIdempotencyKey(maxLength: Int) -> HTTPError {
    HTTPError(
      status: 400, code: "invalid_idempotency_key",
      message: "An Idempotency-Key is 1 to \(maxLength) characters of A-Z, a-z, 0-9 and -_.:~+/=.")
  }

  static func idempotencyKeyReused() -> HTTPError {
    HTTPError(
      status: 422, code: "idempotency_key_reused",
      message: "This Idempotency-Key was sent before with another body; use a new key for a new request.")
  }

  static func idempotencyKeyInUse() -> HTTPError {
    HTTPError(
      status: 409, code: "idempotency_key_in_use",
      message: "A request with this Idempotency-Key is being answered; send it again shortly.",
      headers: ["Retry-After": "1"])
  }

  static func rateLimited(retryAfter: Duration?, _ message: String) -> HTTPError {
    var headers: HTTPHeaders = [:]
    if let retryAfter {
      headers.set("Retry-After", String(max(1, Int(retryAfter.components.seconds) + 1)))
    }
    return HTTPError(status: 429, code: "rate_limited", message: message, headers: headers)
  }

  static func atCapacity() -> HTTPError {
    HTTPError(
      status: 503, code: "at_capacity", message: "The server holds as many sessions as it may; try again later.",
      headers: ["Retry-After": "5"])
  }

  static func shuttingDown() -> HTTPError {
    HTTPError(
      status: 503, code: "shutting_down", message: "The server is shutting down; try again shortly.",
      headers: ["Retry-After": "2"])
  }

  /// The session's saved state is one this build cannot read (another build saved it): it is
  /// kept, and served again by a build that reads it.
  static func sessionUnreadable() -> HTTPError {
    HTTPError(
      status: 503, code: "session_unreadable",
      message: "This session was saved by a version of the app that the one running now cannot read; it is kept unchanged. Try again later.",
      headers: ["Retry-After": "30"])
  }

  /// Storage cannot be read or written: a resting session cannot be brought back, a save
  /// failed (and its change was undone), or saves have failed for longer than fast mode's
  /// window. Nothing was applied, and no session was created.
  static func storageUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "storage_unavailable",
      message: "The sessions' storage cannot be read or written right now; nothing was applied. Try again shortly.",
      headers: ["Retry-After": "1"])
  }
}

/// The errors of watch tickets and streams of several sessions (`GET /api/events`).
extension HTTPError {
  static func invalidWatch(_ message: String) -> HTTPError {
    HTTPError(status: 400, code: "invalid_watch", message: message)
  }

  /// A ticket this server did not sign, or one past its expiry: reported for its session
  /// in an `event: dropped`, while the stream goes on with the others.
  static func invalidTicket(expired: Bool) -> HTTPError {
    HTTPError(
      status: 401, code: "invalid_ticket",
      message: (expired ? "This watch ticket has expired" : "This watch ticket was not issued by this server")
        + "; get a new one with POST /api/sessions/{id}/tickets.")
  }
}
