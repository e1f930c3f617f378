/// The `history` table of schema 4, one row per session and step: read in a file that an
/// older StoreHost serves (``SQLiteSavedSessions``), and moved into `history_runs`
/// (``HistoryTable``) when the file is migrated.
enum HistoryStepRows {
  /// The steps of the session `id`, oldest first, whole.
  static func read(_ id: SessionID, from connection: SQLiteConnection) throws -> [HistoryRecord] {
    let select = try connection.prepare("SELECT \(columns) FROM history WHERE session_id = ?1 ORDER BY step")
    try select.bind(.text(id.rawValue))
    var records: [HistoryRecord] = []
    while try select.step() { records.append(record(select, from: 0)) }
    return records
  }

  /// Moves every session's steps into `history_runs`, created already, and drops the table.
  static func moveToRuns(in connection: SQLiteConnection) throws {
    do {
      let runs = try HistoryTable(connection)
      let select = try connection.prepare("SELECT session_id, \(columns) FROM history ORDER BY session_id, step")
      try select.bind()
      var session: (id: SessionID, records: [HistoryRecord])?
      func store() throws {
        guard let session, let first = session.records.first else { return }
        let write = HistoryWrite(records: session.records, firstKeptStep: first.step, dropsEarlierSteps: false)
        try runs.write(write, of: session.id)
      }
      while try select.step() {
        guard let id = SessionID(select.text(at: 0)) else { continue }
        if session?.id != id {
          try store()
          session = (id, [])
        }
        session?.records.append(record(select, from: 1))
      }
      try store()
    }
    // Its statements are finalized: the table can go.
    try connection.execute("DROP TABLE history")
  }

  private static let columns = "step, version, state_version, step_json, state"

  /// The step in the current row of `select`, whose ``columns`` start at `column`.
  private static func record(_ select: SQLiteStatement, from column: Int32) -> HistoryRecord {
    HistoryRecord(
      step: Int(select.integer(at: column)), version: Int(select.integer(at: column + 1)),
      stateVersion: Int(select.integer(at: column + 2)), json: [UInt8](select.blob(at: column + 3)),
      state: select.isNull(at: column + 4) ? nil : [UInt8](select.blob(at: column + 4)))
  }
}
