/// A PostgreSQL failure, with whether the connection itself broke (the database is
/// unreachable or restarted) or only the statement failed.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
  /// libpq's message, without its trailing newline.
  public let message: String
  /// The five-character SQLSTATE of a statement error, when the server sent one.
  public let sqlState: String?
  /// Whether the connection is unusable: the caller should reconnect and may retry.
  public let isConnectionFailure: Bool

  public var description: String {
    sqlState.map { "PostgreSQL error \($0): \(message)" } ?? "PostgreSQL: \(message)"
  }

  /// The listener is between connections.
  static let notConnected = PostgresError(message: "not connected to the database", isConnectionFailure: true)

  init(message: String, sqlState: String? = nil, isConnectionFailure: Bool) {
    var message = message
    while message.last?.isNewline == true { message.removeLast() }
    self.message = message
    self.sqlState = sqlState
    self.isConnectionFailure = isConnectionFailure
  }
}
