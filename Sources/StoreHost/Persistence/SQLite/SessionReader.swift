import CSQLite
import Dispatch
import Foundation

/// Reads single sessions from the SQLite file on a connection of its own, beside the
/// writer's: in WAL mode it reads the last committed versions while the writer writes, so a
/// session is brought into memory without waiting for a batch to commit.
///
/// The connection and its statements are used only on ``queue``, one read at a time.
final class SessionReader: @unchecked Sendable {
  private let queue = DispatchQueue(label: "StoreHost session reader")
  private let connection: SQLiteConnection
  private let selectSession: SQLiteStatement
  private let selectAnswers: SQLiteStatement
  private let selectHistoryOutline: SQLiteStatement
  private let selectActive: SQLiteStatement

  /// Opens `path`, whose tables the writer created.
  init(path: String, busyTimeout: Duration) throws {
    connection = try SQLiteConnection(path: path)
    try connection.check(sqlite3_busy_timeout(connection.handle, Int32(busyTimeout / .milliseconds(1))))
    selectSession = try connection.prepare("SELECT \(SessionTable.sessionColumns) FROM sessions WHERE id = ?1")
    selectAnswers = try connection.prepare("SELECT \(SessionTable.answerColumns) FROM answers WHERE session_id = ?1")
    selectHistoryOutline = try connection.prepare(HistoryTable.selectOutline)
    selectActive = try connection.prepare(
      """
      SELECT id FROM sessions WHERE last_active_at_ms >= ?1 AND last_active_at_ms < ?2 AND state_version <= ?4
      ORDER BY last_active_at_ms DESC LIMIT ?3
      """)
  }

  /// The session stored under `id`, with its answers and the outline of its history (see
  /// ``HistoryRecord/state``): the rest of its history stays in the file until asked for.
  func load(_ id: SessionID) async throws -> SessionSnapshot? {
    try await read { [self] in
      try selectSession.bind(.text(id.rawValue))
      guard try selectSession.step() else { return nil }
      var snapshot = try SessionTable.snapshot(selectSession)
      try selectAnswers.bind(.text(id.rawValue))
      while try selectAnswers.step() { snapshot.answers.append(SessionTable.answer(selectAnswers, from: 0)) }
      try selectHistoryOutline.bind(.text(id.rawValue))
      snapshot.history = try HistoryTable.outlines(from: selectHistoryOutline)[id] ?? []
      return snapshot
    }
  }

  /// The ids of up to `limit` sessions last active in `range` and saved under a state
  /// version up to `stateVersion`, most recent first.
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  {
    try await read { [self] in
      try selectActive.bind(
        .integer(SessionTable.milliseconds(range.lowerBound)), .integer(SessionTable.milliseconds(range.upperBound)),
        .integer(Int64(limit)), .integer(Int64(clamping: stateVersion)))
      var ids: [SessionID] = []
      while try selectActive.step() {
        if let id = SessionID(selectActive.text(at: 0)) { ids.append(id) }
      }
      return ids
    }
  }

  private func read<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result(catching: body)) }
    }
  }
}
