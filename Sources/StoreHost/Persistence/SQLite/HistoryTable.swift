import Foundation

/// The `history` table of a session file: one row per session and step of its history
/// (``HistoryRecord``), with the statements that use it prepared once.
struct HistoryTable {
  private let upsert: SQLiteStatement
  private let trim: SQLiteStatement
  private let remove: SQLiteStatement
  private let removeAll: SQLiteStatement
  private let selectOutlines: SQLiteStatement
  private let selectOne: SQLiteStatement

  init(_ connection: SQLiteConnection) throws {
    upsert = try connection.prepare(
      """
      INSERT OR REPLACE INTO history (session_id, step, version, state_version, step_json, state)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6)
      """)
    trim = try connection.prepare("DELETE FROM history WHERE session_id = ?1 AND step < ?2")
    remove = try connection.prepare("DELETE FROM history WHERE session_id = ?1")
    removeAll = try connection.prepare("DELETE FROM history")
    selectOutlines = try connection.prepare(
      """
      SELECT \(Self.outlineColumns) FROM history AS h
      WHERE state IS NOT NULL OR step = (SELECT max(step) FROM history WHERE session_id = h.session_id)
      ORDER BY session_id, step
      """)
    selectOne = try connection.prepare(Self.selectSession)
  }

  /// Creates the table (schema 4).
  static func create(in connection: SQLiteConnection) throws {
    try connection.execute(
      """
      CREATE TABLE history (
        session_id TEXT NOT NULL,
        step INTEGER NOT NULL,
        version INTEGER NOT NULL,
        state_version INTEGER NOT NULL,
        step_json BLOB NOT NULL,
        state BLOB,
        PRIMARY KEY (session_id, step)
      ) WITHOUT ROWID;
      """)
  }

  /// Stores the steps of `write` for the session `id` and deletes its steps before the
  /// first kept one, when there may be any.
  func write(_ write: HistoryWrite, of id: SessionID) throws {
    for record in write.records {
      try upsert.bind(
        .text(id.rawValue), .integer(Int64(record.step)), .integer(Int64(record.version)),
        .integer(Int64(record.stateVersion)), .bytes(record.json), record.state.map { .bytes($0) } ?? .null)
      try upsert.step()
    }
    guard write.dropsEarlierSteps else { return }
    try trim.bind(.text(id.rawValue), .integer(Int64(write.firstKeptStep)))
    try trim.step()
  }

  func delete(_ id: SessionID) throws {
    try remove.bind(.text(id.rawValue))
    try remove.step()
  }

  func deleteAll() throws {
    try removeAll.bind()
    try removeAll.step()
  }

  /// Every session's steps that keep the whole state, and its last step, oldest first, as an
  /// outline: without their JSON, and with an empty state where they keep the whole state
  /// (see ``HistoryRecord/state``).
  func readOutlines() throws -> [SessionID: [HistoryRecord]] {
    try selectOutlines.bind()
    return try Self.records(from: selectOutlines)
  }

  /// The columns ``records(from:)`` reads, for an outline: no step JSON, and an empty state
  /// where the step keeps the whole state.
  private static let outlineColumns =
    "session_id, step, version, state_version, x'', CASE WHEN state IS NULL THEN NULL ELSE x'' END"

  /// Selects the outline of the session `?1`'s history (see ``readOutlines()``), for
  /// ``records(from:)``.
  static let selectOutline = """
    SELECT \(outlineColumns) FROM history
    WHERE session_id = ?1 AND (state IS NOT NULL OR step = (SELECT max(step) FROM history WHERE session_id = ?1))
    ORDER BY step
    """

  /// The steps of the session `id`, oldest first, whole.
  func read(_ id: SessionID) throws -> [HistoryRecord] {
    try selectOne.bind(.text(id.rawValue))
    return try Self.records(from: selectOne)[id] ?? []
  }

  /// The steps of the session `id`, oldest first, whole, read on `connection`.
  static func read(_ id: SessionID, from connection: SQLiteConnection) throws -> [HistoryRecord] {
    let select = try connection.prepare(selectSession)
    try select.bind(.text(id.rawValue))
    return try records(from: select)[id] ?? []
  }

  private static let selectSession =
    "SELECT session_id, step, version, state_version, step_json, state FROM history WHERE session_id = ?1 ORDER BY step"

  /// The steps the bound `select` finds, by session, oldest first.
  static func records(from select: SQLiteStatement) throws -> [SessionID: [HistoryRecord]] {
    var records: [SessionID: [HistoryRecord]] = [:]
    while try select.step() {
      guard let id = SessionID(select.text(at: 0)) else { continue }
      records[id, default: []].append(
        HistoryRecord(
          step: Int(select.integer(at: 1)), version: Int(select.integer(at: 2)), stateVersion: Int(select.integer(at: 3)),
          json: [UInt8](select.blob(at: 4)), state: select.isNull(at: 5) ? nil : [UInt8](select.blob(at: 5))))
    }
    return records
  }
}
