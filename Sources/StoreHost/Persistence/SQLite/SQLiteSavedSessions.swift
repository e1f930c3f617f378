import CSQLite

/// The sessions saved in a SQLite file (``SQLiteSessionPersistence``), read on a read-only
/// connection of their own a page at a time, without migrating the file: a build about to
/// be deployed reads them while another StoreHost version serves the file.
public final class SQLiteSavedSessions: SavedSessions {
  private let connection: SQLiteConnection
  private let page: SQLiteStatement
  private let one: SQLiteStatement
  private let recent: SQLiteStatement
  private let schemaVersion: Int

  /// Opens the file at `path` read-only.
  /// - Throws: when it cannot be opened, or a newer StoreHost wrote its schema.
  public init(path: String) throws {
    connection = try SQLiteConnection(path: path, readOnly: true)
    try connection.check(sqlite3_busy_timeout(connection.handle, 5000))
    let version = try SessionTable.userVersion(connection)
    guard version <= SessionTable.schemaVersion else { throw SessionPersistenceError.unsupportedSchema(version: version) }
    let versions = version >= 3 ? "state_version, reserved_version" : "0, version"
    // Keyset pagination on the primary key: each page is one index range, however deep.
    page = try connection.prepare(
      """
      SELECT id, version, state, created_at_ms, last_active_at_ms, \(versions) FROM sessions
      WHERE id > ?1 ORDER BY id LIMIT ?2
      """)
    one = try connection.prepare(
      "SELECT id, version, state, created_at_ms, last_active_at_ms, \(versions) FROM sessions WHERE id = ?1")
    recent = try connection.prepare("SELECT id FROM sessions ORDER BY last_active_at_ms DESC LIMIT ?1")
    schemaVersion = version
  }

  public func sessions(after id: SessionID?, limit: Int) throws -> [SessionSnapshot] {
    try page.bind(.text(id?.rawValue ?? ""), .integer(Int64(max(limit, 0))))
    var snapshots: [SessionSnapshot] = []
    snapshots.reserveCapacity(max(limit, 0))
    while try page.step() { snapshots.append(try SessionTable.snapshot(page)) }
    return snapshots
  }

  public func recentlyActive(limit: Int) throws -> [SessionID] {
    try recent.bind(.integer(Int64(max(limit, 0))))
    var ids: [SessionID] = []
    while try recent.step() {
      if let id = SessionID(recent.text(at: 0)) { ids.append(id) }
    }
    return ids
  }

  public func history(of id: SessionID) throws -> [HistoryRecord] {
    switch schemaVersion {
    case ..<4: []
    case 4: try HistoryStepRows.read(id, from: connection)
    default: try HistoryTable.read(id, from: connection)
    }
  }

  /// The session `id`, with its history (and without its remembered answers): `nil` when
  /// it is not saved.
  public func session(_ id: SessionID) throws -> SessionSnapshot? {
    try one.bind(.text(id.rawValue))
    guard try one.step() else { return nil }
    var snapshot = try SessionTable.snapshot(one)
    _ = try one.step()  // done: the read ends, and holds back no checkpoint of a running server
    snapshot.history = try history(of: id)
    return snapshot
  }
}
