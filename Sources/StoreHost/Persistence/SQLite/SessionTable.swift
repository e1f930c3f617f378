import CSQLite
import Foundation

/// The `sessions` table in one SQLite file, with its statements prepared once.
/// Owned by the persistence's writer thread.
final class SessionTable {
  /// The schema this code writes, kept in `PRAGMA user_version`.
  static let schemaVersion = 2

  private let connection: SQLiteConnection
  private let upsert: SQLiteStatement
  private let remove: SQLiteStatement
  private let selectAll: SQLiteStatement
  private let begin: SQLiteStatement
  private let commit: SQLiteStatement

  /// Opens `path` in WAL mode with the fsync policy of `durability`, creating the table.
  init(path: String, durability: Durability, busyTimeout: Duration) throws {
    connection = try SQLiteConnection(path: path)
    try connection.check(sqlite3_busy_timeout(connection.handle, Int32(busyTimeout / .milliseconds(1))))
    try connection.execute("PRAGMA journal_mode=WAL")
    try connection.execute(durability == .strict ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
    let version = try Self.userVersion(connection)
    guard version <= Self.schemaVersion else { throw SessionPersistenceError.unsupportedSchema(version: version) }
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL,
        state BLOB NOT NULL,
        created_at_ms INTEGER NOT NULL,
        last_active_at_ms INTEGER NOT NULL,
        answers BLOB
      );
      """)
    // Version 1 had no remembered answers.
    if version == 1 { try connection.execute("ALTER TABLE sessions ADD COLUMN answers BLOB") }
    try connection.execute("PRAGMA user_version=\(Self.schemaVersion)")
    // A stale write never replaces a newer version; created_at keeps its first value.
    upsert = try connection.prepare(
      """
      INSERT INTO sessions (id, version, state, created_at_ms, last_active_at_ms, answers)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6)
      ON CONFLICT (id) DO UPDATE SET
        version = excluded.version, state = excluded.state, last_active_at_ms = excluded.last_active_at_ms,
        answers = excluded.answers
      WHERE excluded.version >= sessions.version
      """)
    remove = try connection.prepare("DELETE FROM sessions WHERE id = ?1")
    selectAll = try connection.prepare(
      "SELECT id, version, state, created_at_ms, last_active_at_ms, answers FROM sessions ORDER BY id")
    begin = try connection.prepare("BEGIN IMMEDIATE")
    commit = try connection.prepare("COMMIT")
  }

  /// Writes every change in one transaction: all of them, or none when this throws.
  func write(_ changes: [SessionID: SessionWrite]) throws {
    try begin.bind()
    try begin.step()
    do {
      for (id, change) in changes {
        switch change {
        case .save(let snapshot):
          try upsert.bind(
            .text(id.rawValue), .integer(Int64(snapshot.version)), .blob(snapshot.state),
            .integer(Self.milliseconds(snapshot.createdAt)), .integer(Self.milliseconds(snapshot.lastActiveAt)),
            snapshot.answers.storedJSON.map { .blob($0) } ?? .null)
          try upsert.step()
        case .delete:
          try remove.bind(.text(id.rawValue))
          try remove.step()
        }
      }
      try commit.bind()
      try commit.step()
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Every stored session, ordered by id.
  func loadAll() throws -> [SessionSnapshot] {
    try selectAll.bind()
    var snapshots: [SessionSnapshot] = []
    while try selectAll.step() {
      let rawID = selectAll.text(at: 0)
      guard let id = SessionID(rawID) else { throw SessionPersistenceError.invalidRecord("id \"\(rawID)\"") }
      snapshots.append(
        SessionSnapshot(
          id: id, version: Int(selectAll.integer(at: 1)), state: selectAll.blob(at: 2),
          createdAt: Self.date(selectAll.integer(at: 3)), lastActiveAt: Self.date(selectAll.integer(at: 4)),
          answers: [RememberedAnswer](storedJSON: selectAll.blob(at: 5))))
    }
    return snapshots
  }

  private static func userVersion(_ connection: SQLiteConnection) throws -> Int {
    let statement = try connection.prepare("PRAGMA user_version")
    try statement.bind()
    return try statement.step() ? Int(statement.integer(at: 0)) : 0
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  private static func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
