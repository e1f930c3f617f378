import CSQLite
import Foundation

/// The `sessions`, `answers` and `history` tables in one SQLite file, with their statements
/// prepared once. Owned by the persistence's writer thread.
///
/// - `sessions`: one row per session: its latest saved `version` and `state` (compact JSON),
///   the `state_version` of the build that wrote it, the `reserved_version` it may have
///   published up to (see ``SessionSnapshot/reservedVersion``), and times in milliseconds.
/// - `answers`: the remembered answers of `Idempotency-Key` requests, one row per session and
///   key, written in the same transaction as the state they report.
/// - `history_runs`: the kept steps of each session's history (``HistoryRecord``), one row per
///   run of consecutive steps (``HistoryRun``), written in the same transaction as the state
///   they lead to.
final class SessionTable {
  /// The schema this code writes, kept in `PRAGMA user_version`: 1 had no answers, 2 kept
  /// them as JSON in a column of `sessions`, 3 in a table of their own, with state and
  /// reserved versions, 4 added the history (a row per step), 5 keeps it in runs of steps.
  static let schemaVersion = 5

  private let connection: SQLiteConnection
  private let upsert: SQLiteStatement
  private let insertAnswer: SQLiteStatement
  private let reserve: SQLiteStatement
  private let remove: SQLiteStatement
  private let removeAnswers: SQLiteStatement
  private let expireAnswers: SQLiteStatement
  private let history: HistoryTable
  private let selectAll: SQLiteStatement
  private let selectAnswers: SQLiteStatement
  private let begin: SQLiteStatement
  private let commit: SQLiteStatement

  /// Opens `path` in WAL mode with the fsync policy of `durability`, creating or migrating
  /// the tables.
  init(path: String, durability: Durability, busyTimeout: Duration) throws {
    connection = try SQLiteConnection(path: path)
    try connection.check(sqlite3_busy_timeout(connection.handle, Int32(busyTimeout / .milliseconds(1))))
    try connection.execute("PRAGMA journal_mode=WAL")
    try connection.execute(durability == .strict ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
    try Self.migrate(connection)
    // For bringing recently active sessions back, and finding expired ones.
    try connection.execute("CREATE INDEX IF NOT EXISTS sessions_last_active ON sessions (last_active_at_ms)")
    // A stale write never replaces a newer version, nor a state a newer build wrote;
    // created_at keeps its first value.
    upsert = try connection.prepare(
      """
      INSERT INTO sessions (id, version, state, created_at_ms, last_active_at_ms, state_version, reserved_version)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      ON CONFLICT (id) DO UPDATE SET
        version = excluded.version, state = excluded.state, last_active_at_ms = excluded.last_active_at_ms,
        state_version = excluded.state_version, reserved_version = excluded.reserved_version
      WHERE excluded.version >= sessions.version AND excluded.state_version >= sessions.state_version
      """)
    insertAnswer = try connection.prepare(
      """
      INSERT OR REPLACE INTO answers (session_id, key, body_digest, status, body, version, answered_at_ms)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      """)
    reserve = try connection.prepare(
      "UPDATE sessions SET version = ?2, reserved_version = ?3 WHERE id = ?1 AND version <= ?2")
    remove = try connection.prepare("DELETE FROM sessions WHERE id = ?1")
    removeAnswers = try connection.prepare("DELETE FROM answers WHERE session_id = ?1")
    expireAnswers = try connection.prepare("DELETE FROM answers WHERE answered_at_ms < ?1")
    history = try HistoryTable(connection)
    selectAll = try connection.prepare("SELECT \(Self.sessionColumns) FROM sessions ORDER BY id")
    selectAnswers = try connection.prepare(
      "SELECT session_id, \(Self.answerColumns) FROM answers ORDER BY answered_at_ms")
    begin = try connection.prepare("BEGIN IMMEDIATE")
    commit = try connection.prepare("COMMIT")
  }

  /// Writes every change, forgets the answers given before `answersBefore`, and with
  /// `deletingAllHistory` every session's history, in one transaction: all of it, or none
  /// when this throws.
  func write(
    _ changes: [SessionID: SessionWrite], forgettingAnswersBefore answersBefore: Date? = nil,
    deletingAllHistory: Bool = false
  ) throws {
    try begin.bind()
    try begin.step()
    do {
      if deletingAllHistory { try history.deleteAll() }
      for (id, change) in changes {
        switch change {
        case .save(let snapshot, let historyWrite):
          try upsert.bind(
            .text(id.rawValue), .integer(Int64(snapshot.version)), .blob(snapshot.state),
            .integer(Self.milliseconds(snapshot.createdAt)), .integer(Self.milliseconds(snapshot.lastActiveAt)),
            .integer(Int64(snapshot.stateVersion)), .integer(Int64(snapshot.reservedVersion)))
          try upsert.step()
          for answer in snapshot.answers { try insert(answer, of: id) }
          if let historyWrite { try history.write(historyWrite, of: id) }
        case .reserve(let reservation):
          try reserve.bind(
            .text(id.rawValue), .integer(Int64(reservation.version)), .integer(Int64(reservation.reservedVersion)))
          try reserve.step()
        case .delete:
          try remove.bind(.text(id.rawValue))
          try remove.step()
          try removeAnswers.bind(.text(id.rawValue))
          try removeAnswers.step()
          try history.delete(id)
        }
      }
      if let answersBefore {
        try expireAnswers.bind(.integer(Self.milliseconds(answersBefore)))
        try expireAnswers.step()
      }
      try commit.bind()
      try commit.step()
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Commits a write that changes nothing (the schema version, set to itself), to learn
  /// whether the file takes writes.
  func probe() throws {
    try begin.bind()
    try begin.step()
    do {
      try connection.execute("PRAGMA user_version=\(Self.schemaVersion)")
      try commit.bind()
      try commit.step()
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  private func insert(_ answer: RememberedAnswer, of id: SessionID) throws {
    try insertAnswer.bind(
      .text(id.rawValue), .text(answer.key), .text(answer.bodyDigest), .integer(Int64(answer.status)),
      .text(answer.body), .integer(Int64(answer.version)), .integer(Self.milliseconds(answer.answeredAt)))
    try insertAnswer.step()
  }

  /// Every stored session with its answers and the outline of its history, ordered by id.
  func loadAll() throws -> [SessionSnapshot] {
    let histories = try history.readOutlines()
    var answers: [SessionID: [RememberedAnswer]] = [:]
    try selectAnswers.bind()
    while try selectAnswers.step() {
      guard let id = SessionID(selectAnswers.text(at: 0)) else { continue }
      answers[id, default: []].append(Self.answer(selectAnswers, from: 1))
    }
    try selectAll.bind()
    var snapshots: [SessionSnapshot] = []
    while try selectAll.step() {
      var snapshot = try Self.snapshot(selectAll)
      snapshot.answers = answers[snapshot.id] ?? []
      snapshot.history = histories[snapshot.id] ?? []
      snapshots.append(snapshot)
    }
    return snapshots
  }

  /// The columns ``snapshot(_:)`` reads, in order.
  static let sessionColumns =
    "id, version, state, created_at_ms, last_active_at_ms, state_version, reserved_version"

  /// The session in the current row of `statement`, which selected ``sessionColumns``.
  static func snapshot(_ statement: SQLiteStatement) throws -> SessionSnapshot {
    let rawID = statement.text(at: 0)
    guard let id = SessionID(rawID) else { throw SessionPersistenceError.invalidRecord("id \"\(rawID)\"") }
    return SessionSnapshot(
      id: id, version: Int(statement.integer(at: 1)), state: statement.blob(at: 2),
      stateVersion: Int(statement.integer(at: 5)), reservedVersion: Int(statement.integer(at: 6)),
      createdAt: date(statement.integer(at: 3)), lastActiveAt: date(statement.integer(at: 4)))
  }

  /// The columns ``answer(_:from:)`` reads, in order.
  static let answerColumns = "key, body_digest, status, body, version, answered_at_ms"

  /// The answer in the current row of `statement`, whose ``answerColumns`` start at `column`.
  static func answer(_ statement: SQLiteStatement, from column: Int32) -> RememberedAnswer {
    RememberedAnswer(
      key: statement.text(at: column), bodyDigest: statement.text(at: column + 1),
      status: Int(statement.integer(at: column + 2)), body: statement.text(at: column + 3),
      version: Int(statement.integer(at: column + 4)), answeredAt: date(statement.integer(at: column + 5)))
  }

  /// The stored history steps of the session `id`, oldest first, whole.
  func history(of id: SessionID) throws -> [HistoryRecord] {
    try history.read(id)
  }

  // MARK: Schema

  /// Creates the tables in a new file, or brings an older file's up to ``schemaVersion``, in
  /// one transaction.
  private static func migrate(_ connection: SQLiteConnection) throws {
    let version = try userVersion(connection)
    guard version <= schemaVersion else { throw SessionPersistenceError.unsupportedSchema(version: version) }
    guard version < schemaVersion else { return }
    try connection.execute("BEGIN IMMEDIATE")
    do {
      if version < 3 { try migrateToAnswersTable(connection, from: version) }
      try HistoryTable.create(in: connection)
      if version == 4 { try HistoryStepRows.moveToRuns(in: connection) }
      try connection.execute("PRAGMA user_version=\(schemaVersion)")
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Brings the tables of schema `version` (0 for a new file) to schema 3: sessions with
  /// state and reserved versions, and answers in a table of their own.
  private static func migrateToAnswersTable(_ connection: SQLiteConnection, from version: Int) throws {
    if version == 0 {
      try connection.execute(
        """
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY NOT NULL,
          version INTEGER NOT NULL,
          state BLOB NOT NULL,
          created_at_ms INTEGER NOT NULL,
          last_active_at_ms INTEGER NOT NULL,
          state_version INTEGER NOT NULL DEFAULT 0,
          reserved_version INTEGER NOT NULL DEFAULT 0
        );
        """)
    } else {
      try connection.execute(
        """
        ALTER TABLE sessions ADD COLUMN state_version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN reserved_version INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET reserved_version = version;
        """)
    }
    try connection.execute(
      """
      CREATE TABLE answers (
        session_id TEXT NOT NULL,
        key TEXT NOT NULL,
        body_digest TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        version INTEGER NOT NULL,
        answered_at_ms INTEGER NOT NULL,
        PRIMARY KEY (session_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX answers_answered_at ON answers (answered_at_ms);
      """)
    if version == 2 {
      try moveAnswersToTheirTable(connection)
      try connection.execute("ALTER TABLE sessions DROP COLUMN answers")
    }
  }

  /// Copies the answers schema 2 kept as a JSON array in `sessions.answers` to their table.
  private static func moveAnswersToTheirTable(_ connection: SQLiteConnection) throws {
    let select = try connection.prepare("SELECT id, answers FROM sessions WHERE answers IS NOT NULL")
    let insert = try connection.prepare(
      """
      INSERT OR REPLACE INTO answers (session_id, key, body_digest, status, body, version, answered_at_ms)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      """)
    try select.bind()
    while try select.step() {
      let id = select.text(at: 0)
      let answers = (try? JSONDecoder().decode([RememberedAnswer].self, from: select.blob(at: 1))) ?? []
      for answer in answers {
        try insert.bind(
          .text(id), .text(answer.key), .text(answer.bodyDigest), .integer(Int64(answer.status)), .text(answer.body),
          .integer(Int64(answer.version)), .integer(milliseconds(answer.answeredAt)))
        try insert.step()
      }
    }
  }

  static func userVersion(_ connection: SQLiteConnection) throws -> Int {
    let statement = try connection.prepare("PRAGMA user_version")
    try statement.bind()
    return try statement.step() ? Int(statement.integer(at: 0)) : 0
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  static func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
