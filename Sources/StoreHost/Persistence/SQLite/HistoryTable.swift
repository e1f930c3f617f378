import Foundation

/// The `history_runs` table of a session file: each session's kept history steps
/// (``HistoryRecord``), stored as runs of consecutive steps (``HistoryRun``), one row per run,
/// with the statements that use it prepared once.
struct HistoryTable {
  private let upsert: SQLiteStatement
  private let removeOverlapped: SQLiteStatement
  private let trim: SQLiteStatement
  private let remove: SQLiteStatement
  private let removeAll: SQLiteStatement
  private let selectOutlines: SQLiteStatement
  private let selectOne: SQLiteStatement

  init(_ connection: SQLiteConnection) throws {
    upsert = try connection.prepare(
      """
      INSERT OR REPLACE INTO history_runs
        (session_id, first_step, first_version, last_step, last_version, state_version, steps, state)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      """)
    removeOverlapped = try connection.prepare(
      "DELETE FROM history_runs WHERE session_id = ?1 AND first_step > ?2 AND first_step <= ?3")
    trim = try connection.prepare("DELETE FROM history_runs WHERE session_id = ?1 AND last_step < ?2")
    remove = try connection.prepare("DELETE FROM history_runs WHERE session_id = ?1")
    removeAll = try connection.prepare("DELETE FROM history_runs")
    selectOutlines = try connection.prepare(
      """
      SELECT \(Self.outlineColumns) FROM history_runs AS h
      WHERE state IS NOT NULL
        OR first_step = (SELECT max(first_step) FROM history_runs WHERE session_id = h.session_id)
      ORDER BY session_id, first_step
      """)
    selectOne = try connection.prepare(Self.selectSession)
  }

  /// Creates the table (schema 5).
  static func create(in connection: SQLiteConnection) throws {
    try connection.execute(
      """
      CREATE TABLE history_runs (
        session_id TEXT NOT NULL,
        first_step INTEGER NOT NULL,
        first_version INTEGER NOT NULL,
        last_step INTEGER NOT NULL,
        last_version INTEGER NOT NULL,
        state_version INTEGER NOT NULL,
        steps BLOB NOT NULL,
        state BLOB,
        PRIMARY KEY (session_id, first_step)
      ) WITHOUT ROWID;
      """)
  }

  /// Stores the steps of `write` for the session `id` and deletes its steps before the
  /// first kept one, when there may be any.
  ///
  /// A run replaces the stored runs that begin within its steps: a save that finds steps an
  /// earlier save stored (it committed, but had not yet said so) writes them again, from the
  /// same step on. The first kept step keeps the whole state, so it begins a run: the runs
  /// before it end before it, and are deleted whole.
  func write(_ write: HistoryWrite, of id: SessionID) throws {
    for run in HistoryRun.runs(in: write.records) {
      let first = run.first
      let last = run.last
      if last.step > first.step {
        try removeOverlapped.bind(.text(id.rawValue), .integer(Int64(first.step)), .integer(Int64(last.step)))
        try removeOverlapped.step()
      }
      try upsert.bind(
        .text(id.rawValue), .integer(Int64(first.step)), .integer(Int64(first.version)), .integer(Int64(last.step)),
        .integer(Int64(last.version)), .integer(Int64(first.stateVersion)), .bytes(run.encodedSteps),
        first.state.map { .bytes($0) } ?? .null)
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

  // MARK: Reading

  /// Every session's steps that keep the whole state, and its last step, oldest first, as an
  /// outline: without their JSON, and with an empty state where they keep the whole state
  /// (see ``HistoryRecord/state``).
  func readOutlines() throws -> [SessionID: [HistoryRecord]] {
    try selectOutlines.bind()
    return try Self.outlines(from: selectOutlines)
  }

  /// Selects the runs that make the outline of the session `?1`'s history (see
  /// ``readOutlines()``), for ``outlines(from:)``.
  static let selectOutline = """
    SELECT \(outlineColumns) FROM history_runs
    WHERE session_id = ?1
      AND (state IS NOT NULL OR first_step = (SELECT max(first_step) FROM history_runs WHERE session_id = ?1))
    ORDER BY first_step
    """

  /// The columns ``outlines(from:)`` reads.
  private static let outlineColumns =
    "session_id, first_step, first_version, last_step, last_version, state_version, state IS NOT NULL"

  /// The outlines of the histories whose runs the bound `select` finds (those keeping the
  /// whole state, and each session's last, ordered by session and step).
  static func outlines(from select: SQLiteStatement) throws -> [SessionID: [HistoryRecord]] {
    var outlines: [SessionID: [HistoryRecord]] = [:]
    var lastSteps: [SessionID: HistoryRecord] = [:]
    while try select.step() {
      guard let id = SessionID(select.text(at: 0)) else { continue }
      let stateVersion = Int(select.integer(at: 5))
      let firstStep = Int(select.integer(at: 1))
      let lastStep = Int(select.integer(at: 3))
      let keepsState = select.integer(at: 6) != 0
      if keepsState {
        outlines[id, default: []].append(
          HistoryRecord(
            step: firstStep, version: Int(select.integer(at: 2)), stateVersion: stateVersion, json: [], state: []))
      }
      // The last run read is the session's last: its last step ends the outline.
      lastSteps[id] =
        keepsState && lastStep == firstStep
        ? nil
        : HistoryRecord(
          step: lastStep, version: Int(select.integer(at: 4)), stateVersion: stateVersion, json: [], state: nil)
    }
    for (id, last) in lastSteps { outlines[id, default: []].append(last) }
    return outlines
  }

  /// The steps of the session `id`, oldest first, whole.
  func read(_ id: SessionID) throws -> [HistoryRecord] {
    try selectOne.bind(.text(id.rawValue))
    return try Self.records(from: selectOne)
  }

  /// The steps of the session `id`, oldest first, whole, read on `connection`.
  static func read(_ id: SessionID, from connection: SQLiteConnection) throws -> [HistoryRecord] {
    let select = try connection.prepare(selectSession)
    try select.bind(.text(id.rawValue))
    return try records(from: select)
  }

  private static let selectSession =
    "SELECT first_step, state_version, steps, state FROM history_runs WHERE session_id = ?1 ORDER BY first_step"

  /// The steps of the runs the bound `select` finds, oldest first. Where runs overlap (a
  /// file written otherwise), the steps of the one that begins later are kept.
  private static func records(from select: SQLiteStatement) throws -> [HistoryRecord] {
    var records: [HistoryRecord] = []
    while try select.step() {
      let firstStep = Int(select.integer(at: 0))
      while let last = records.last, last.step >= firstStep { records.removeLast() }
      let state = select.isNull(at: 3) ? nil : [UInt8](select.blob(at: 3))
      records += select.withBlob(at: 2) {
        HistoryRun.records(inSteps: $0, firstStep: firstStep, stateVersion: Int(select.integer(at: 1)), state: state)
      }
    }
    return records
  }
}
