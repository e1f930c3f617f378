import HTTP

/// The errors of the history routes, each with its status and code.
extension HTTPError {
  static func historyOff() -> HTTPError {
    HTTPError(
      status: 404, code: "history_off",
      message: "This server keeps no history of its sessions (it runs with --history 0).")
  }

  static func versionNotKept(_ version: Int, kept: ClosedRange<Int>?) -> HTTPError {
    HTTPError(
      status: 404, code: "version_not_kept",
      message: "The history of this session does not keep version \(version)"
        + (kept.map { "; it keeps versions \($0.lowerBound) to \($0.upperBound)." } ?? "; it keeps none."))
  }

  /// A path or query parameter that is not a whole number of zero or more.
  static func invalidNumber(_ name: String, _ text: String) -> HTTPError {
    HTTPError(status: 400, code: "invalid_parameter", message: "The \(name) '\(text)' is not a whole number.")
  }

  static func historyUnavailable() -> HTTPError {
    HTTPError(
      status: 503, code: "history_unavailable", message: "The session's history could not be read; try again shortly.",
      headers: ["Retry-After": "1"])
  }

  static func historyUnreadable(_ detail: String) -> HTTPError {
    HTTPError(status: 409, code: "history_unreadable", message: "This build cannot read the session's history: \(detail)")
  }
}
