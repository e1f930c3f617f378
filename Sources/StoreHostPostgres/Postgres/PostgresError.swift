/// A PostgreSQL failure, with whether the connection itself broke (the database is
/// unreachable or restarted) or only the statement failed.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
  /// libpq's message, without its trailing newline.
  public let message: String
  /// The five-character SQLSTATE of a statement error, when the server sent one.
  public let sqlState: String?
  /// Whether the connection is unusable: the caller should reconnect and may retry.
  public let isConnectionFailure: Bool
  /// Whether the database did not answer in time (the connection is given up): trying
  /// again at once would wait as long again.
  public let didTimeOut: Bool

  public var description: String {
    sqlState.map { "PostgreSQL error \($0): \(message)" } ?? "PostgreSQL: \(message)"
  }

  /// The listener is between connections.
  static let notConnected = PostgresError(message: "not connected to the database", isConnectionFailure: true)

  /// The database did not answer a statement within `timeout`.
  static func timedOut(after timeout: Duration) -> PostgresError {
    PostgresError(message: "the database did not answer within \(timeout)", isConnectionFailure: true, didTimeOut: true)
  }

  init(message: String, sqlState: String? = nil, isConnectionFailure: Bool, didTimeOut: Bool = false) {
    var message = message
    while message.last?.isNewline == true { message.removeLast() }
    self.message = message
    self.sqlState = sqlState
    self.isConnectionFailure = isConnectionFailure
    self.didTimeOut = didTimeOut
  }
}
