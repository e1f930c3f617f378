import Foundation

/// The writer thread of ``SQLiteSessionPersistence``: the only code that touches the connection.
enum SessionWriter {
  /// Opens the table, serves batches until closed, closes the connection, and only then
  /// tells the closers. Saves the database refused are retried with the next batch when
  /// `retriesFailedSaves` (fast mode, whose saves were acknowledged before they were
  /// written); otherwise only their waiters hear of it, so a save answered as failed is
  /// never written later. Reservations and deletions are always retried.
  static func run(
    queue: WriteQueue, retriesFailedSaves: Bool, opened: WriteQueue.Waiter, openTable: () throws -> SessionTable
  ) {
    let last: (batch: WriteQueue.Batch, failures: [SessionID: any Error])
    do {
      let table: SessionTable
      do {
        table = try openTable()
      } catch {
        opened.resume(throwing: error)
        return
      }
      opened.resume()
      last = serveBatches(table: table, queue: queue, retriesFailedSaves: retriesFailedSaves)
    }
    for waiter in last.batch.closeWaiters {
      waiter.resume(with: outcome(last.failures.values.first))
    }
  }

  /// Takes batches, commits each and answers its waiters. Returns the last batch (the one
  /// with the close request) and why part of it failed, if it did. Changes the database
  /// refused are reported to their waiters and retried with the next batch (saves only when
  /// `retriesFailedSaves`); a state that cannot be encoded is reported and dropped, since
  /// trying again cannot help.
  private static func serveBatches(
    table: SessionTable, queue: WriteQueue, retriesFailedSaves: Bool
  ) -> (batch: WriteQueue.Batch, failures: [SessionID: any Error]) {
    while true {
      let (batch, isLast) = queue.nextBatch()
      var writes: [SessionID: SessionWrite] = [:]
      var failures: [SessionID: any Error] = [:]
      for (id, change) in batch.changes {
        do { writes[id] = try change.write() } catch { failures[id] = error }
      }
      let refused = commit(
        writes, forgettingAnswersBefore: batch.forgetAnswersBefore, deletingAllHistory: batch.deleteAllHistory,
        to: table, queue: queue)
      if !isLast, !refused.isEmpty {
        queue.requeue(batch.changes.filter { refused[$0.key] != nil && (retriesFailedSaves || !$0.value.isSave) })
      }
      queue.finishedBatch()
      failures.merge(refused) { first, _ in first }
      let anyFailure = failures.values.first
      for (id, waiters) in batch.changeWaiters {
        for waiter in waiters { waiter.resume(with: outcome(failures[id])) }
      }
      for waiter in batch.flushWaiters {
        waiter.resume(with: outcome(anyFailure))
      }
      if !batch.probeWaiters.isEmpty {
        let probed = Result { try table.probe() }
        for waiter in batch.probeWaiters { waiter.resume(with: probed) }
      }
      for waiter in batch.loadWaiters {
        waiter.resume(
          with: Result { () throws -> [SessionSnapshot] in
            if let anyFailure { throw anyFailure }
            return try table.loadAll()
          })
      }
      for (id, waiter) in batch.historyWaiters {
        waiter.resume(with: Result { try table.history(of: id) })
      }
      if isLast { return (batch, failures) }
    }
  }

  /// Success, or failure with `error` when there is one.
  private static func outcome(_ error: (any Error)?) -> Result<Void, any Error> {
    error.map { .failure($0) } ?? .success(())
  }

  /// Commits `changes`, forgetting the answers given before `answersBefore` and with
  /// `deletingAllHistory` every history, in one transaction. When that fails, commits each
  /// change on its own, so one change SQLite refuses cannot hold back every other session.
  /// Returns the changes that failed and why.
  private static func commit(
    _ changes: [SessionID: SessionWrite], forgettingAnswersBefore answersBefore: Date?, deletingAllHistory: Bool,
    to table: SessionTable, queue: WriteQueue
  ) -> [SessionID: any Error] {
    guard !changes.isEmpty || answersBefore != nil || deletingAllHistory else { return [:] }
    let started = ContinuousClock.now
    do {
      try table.write(changes, forgettingAnswersBefore: answersBefore, deletingAllHistory: deletingAllHistory)
      queue.recordCommit(changeCount: changes.count, duration: .now - started)
      return [:]
    } catch {
      guard changes.count > 1 else { return changes.mapValues { _ in error } }
      var failures: [SessionID: any Error] = [:]
      for (id, change) in changes {
        do {
          let started = ContinuousClock.now
          try table.write([id: change])
          queue.recordCommit(changeCount: 1, duration: .now - started)
        } catch {
          failures[id] = error
        }
      }
      return failures
    }
  }
}
