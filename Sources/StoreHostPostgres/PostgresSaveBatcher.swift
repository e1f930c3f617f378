import StoreHost
import Synchronization

/// Group commit for ``PostgresSessionPersistence``: saves that wait at the same time share
/// one transaction, so one WAL flush acknowledges all of them.
///
/// A save joins the waiting list; while fewer than `maxTransactions` batches are being
/// written, a pool thread is asked to write one. That thread takes every waiting save (up
/// to ``maxBatch``), writes each with its own fenced statement inside one transaction, commits,
/// answers them, and takes the next batch until none waits. Saves of one session in batches
/// written at once are fenced by version: an older one changes nothing. A batch whose
/// connection broke after its `COMMIT` was sent fails with ``StoreHost/SaveOutcomeUnknown``:
/// it may have committed; one that broke before fails with the connection's error, and
/// nothing of it was written.
final class PostgresSaveBatcher: Sendable {
  /// The most saves in one transaction.
  static let maxBatch = 256

  /// One save and whoever waits for it.
  struct Save: Sendable {
    let id: SessionID
    /// The ownership epoch it is written under.
    let epoch: Int
    let sql: String
    let parameters: [String?]
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Waiting {
    var saves: [Save] = []
    var writers = 0
  }

  private let waiting = Mutex(Waiting())
  private let pool: PostgresPool
  private let processID: String
  private let maxTransactions: Int

  /// - Parameter maxTransactions: Batches written at once; keep it below the pool's size so
  ///   lease renewals and takeovers always find a connection.
  init(pool: PostgresPool, processID: String, maxTransactions: Int) {
    self.pool = pool
    self.processID = processID
    self.maxTransactions = max(1, maxTransactions)
  }

  /// Runs `sql` with `parameters` (``PostgresSessionPersistence/insert`` or
  /// ``PostgresSessionPersistence/update``: a row back means saved) in the next batch.
  /// - Throws: ``StoreHost/SessionOwnershipLost`` when this process does not own the session
  ///   at `epoch`, ``StoreHost/SaveOutcomeUnknown``, or the database's error.
  func save(_ id: SessionID, epoch: Int, sql: String, parameters: [String?]) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let startWriter = waiting.withLock { waiting in
        waiting.saves.append(Save(id: id, epoch: epoch, sql: sql, parameters: parameters, continuation: continuation))
        guard waiting.writers < maxTransactions else { return false }
        waiting.writers += 1
        return true
      }
      if startWriter { startWriting() }
    }
  }

  private func startWriting() {
    let submitted = pool.submit { [self] attempt in
      switch attempt {
      case .failed(let error):
        abandon(with: error)
        return true
      case .connection(let connection, let mayRetry):
        return writeBatches(on: connection, mayRetry: mayRetry)
      }
    }
    if !submitted { abandon(with: SessionPersistenceError.closed) }
  }

  /// Writes batches until none waits. Returns `false` (to be run again on a fresh
  /// connection) when this reused connection broke before the first batch was taken.
  private func writeBatches(on connection: PostgresConnection, mayRetry: Bool) -> Bool {
    var isFirst = true
    while true {
      do {
        try connection.execute("BEGIN")
      } catch where error.isConnectionFailure && !error.didTimeOut && mayRetry && isFirst {
        return false
      } catch {
        abandon(with: error)
        return true
      }
      isFirst = false
      let batch = takeBatch()
      guard !batch.isEmpty else {
        _ = try? connection.execute("ROLLBACK")
        return true
      }
      write(batch, on: connection)
    }
  }

  /// Writes one batch in the open transaction and answers its saves. A save whose statement
  /// wrote nothing succeeded only if this process still owns the session at its epoch (a
  /// newer save of the same session came first); otherwise the session is lost here.
  private func write(_ batch: [Save], on connection: PostgresConnection) {
    var outcomes: [Result<Void, any Error>] = []
    do {
      for save in batch {
        let saved = try connection.execute(save.sql, save.parameters)
        if saved.isEmpty {
          let row = try connection.execute("SELECT owner, epoch FROM storehost_sessions WHERE id = $1", [save.id.rawValue])
          let isOwned = row.first.map { $0[0] == processID && $0[1] == String(save.epoch) } ?? false
          outcomes.append(isOwned ? .success(()) : .failure(SessionOwnershipLost(id: save.id)))
        } else {
          outcomes.append(.success(()))
        }
      }
    } catch {
      _ = try? connection.execute("ROLLBACK")
      return fail(batch, with: error)
    }
    do {
      try connection.execute("COMMIT")
    } catch where error.isConnectionFailure {
      return fail(batch, with: SaveOutcomeUnknown())
    } catch {
      return fail(batch, with: error)
    }
    for (save, outcome) in zip(batch, outcomes) { save.continuation.resume(with: outcome) }
  }

  /// Takes up to ``maxBatch`` waiting saves, ordered by session id; when none waits, this
  /// writer stops. Every batch locks its rows in that one order, so batches written at once
  /// never deadlock on each other (a shared change saves every session holding the value).
  private func takeBatch() -> [Save] {
    waiting.withLock { waiting -> [Save] in
      guard !waiting.saves.isEmpty else {
        waiting.writers -= 1
        return []
      }
      let batch = Array(waiting.saves.prefix(Self.maxBatch))
      waiting.saves.removeFirst(batch.count)
      return batch
    }
    .sorted { $0.id.rawValue < $1.id.rawValue }
  }

  /// Stops this writer without a connection: fails every waiting save with `error`.
  private func abandon(with error: any Error) {
    let saves = waiting.withLock { waiting in
      waiting.writers -= 1
      defer { waiting.saves = [] }
      return waiting.saves
    }
    fail(saves, with: error)
  }

  private func fail(_ batch: [Save], with error: any Error) {
    for save in batch { save.continuation.resume(throwing: error) }
  }
}
