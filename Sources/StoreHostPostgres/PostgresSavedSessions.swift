import StoreHost

/// The sessions saved in a PostgreSQL database (``PostgresSessionPersistence``), read a page
/// at a time on a connection of their own, without taking a lease, migrating the tables or
/// writing anything: a build about to be deployed reads them while processes of another
/// StoreHost version serve them. Histories live in the serving processes' memory, not in
/// the database, so none is read.
public final class PostgresSavedSessions: SavedSessions {
  private let connection: PostgresConnection
  private let versions: String

  /// Connects to `url`; each page's query may run for up to `statementTimeout`.
  public init(url: String, statementTimeout: Duration = .seconds(60)) throws {
    connection = try PostgresConnection(url: url, statementTimeout: statementTimeout)
    let hasStateVersion = try connection.execute(
      """
      SELECT 1 FROM information_schema.columns
      WHERE table_name = 'storehost_sessions' AND column_name = 'state_version'
      """)
    versions = hasStateVersion.isEmpty ? "0, version" : "state_version, reserved_version"
  }

  public func sessions(after id: SessionID?, limit: Int) throws -> [SessionSnapshot] {
    // Keyset pagination on the primary key: each page is one index range, however deep.
    try connection.execute(
      """
      SELECT id, version, state, created_at, last_active_at, \(versions)
      FROM storehost_sessions WHERE id > $1 ORDER BY id LIMIT $2
      """, [id?.rawValue ?? "", String(max(limit, 0))]
    ).map(SessionSnapshot.init(row:))
  }

  public func recentlyActive(limit: Int) throws -> [SessionID] {
    try connection.execute(
      "SELECT id FROM storehost_sessions ORDER BY last_active_at DESC LIMIT $1", [String(max(limit, 0))]
    ).compactMap { $0.first.flatMap { $0 }.flatMap(SessionID.init) }
  }

  public func history(of id: SessionID) throws -> [HistoryRecord] { [] }
}
