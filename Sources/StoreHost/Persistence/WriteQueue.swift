import Dispatch
import Synchronization

/// What callers hand the writer thread, and how the writer waits for it.
///
/// Callers add changes and waiters under the lock and wake the writer; the writer takes
/// everything pending in one go ("a batch"), so changes queued while it commits share the
/// next transaction.
final class WriteQueue: Sendable {
  /// Everything the writer takes for one transaction.
  struct Batch {
    var changes: [SessionID: PendingChange] = [:]
    /// Resumed once `changes` committed (strict saves and deletes, flushes).
    var commitWaiters: [CheckedContinuation<Void, any Error>] = []
    /// Resumed with every session after `changes` committed.
    var loadWaiters: [CheckedContinuation<[SessionSnapshot], any Error>] = []
    /// Resumed after the connection closed.
    var closeWaiters: [CheckedContinuation<Void, any Error>] = []
  }

  private struct State {
    var batch = Batch()
    /// When the oldest change without a waiter arrived: it is written by `batchDelay` later.
    var oldestUnwaitedChange: ContinuousClock.Instant?
    var isClosed = false
    var statistics = PersistenceStatistics()
  }

  private let state = Mutex(State())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let batchDelay: Duration

  init(batchDelay: Duration) {
    self.batchDelay = batchDelay
  }

  /// Queues `change`; with a `waiter`, the writer starts at once and resumes it after commit,
  /// without one the change is written within `batchDelay`. Returns `false` (and fails the
  /// waiter) once closed.
  @discardableResult
  func enqueue(_ id: SessionID, _ change: PendingChange, waiter: CheckedContinuation<Void, any Error>?) -> Bool {
    let accepted = state.withLock { state in
      guard !state.isClosed else { return false }
      state.batch.changes[id] = state.batch.changes[id].map { $0.merged(with: change) } ?? change
      if let waiter {
        state.batch.commitWaiters.append(waiter)
      } else if state.oldestUnwaitedChange == nil {
        state.oldestUnwaitedChange = .now
      }
      return true
    }
    guard accepted else {
      waiter?.resume(throwing: SessionPersistenceError.closed)
      return false
    }
    wakeUp.signal()
    return true
  }

  /// Asks the writer to commit everything queued, then resume `waiter`.
  func enqueueFlush(_ waiter: CheckedContinuation<Void, any Error>) {
    enqueue { $0.batch.commitWaiters.append(waiter) } orFail: { waiter.resume(throwing: $0) }
  }

  /// Asks the writer to commit everything queued, then read every session for `waiter`.
  func enqueueLoad(_ waiter: CheckedContinuation<[SessionSnapshot], any Error>) {
    enqueue { $0.batch.loadWaiters.append(waiter) } orFail: { waiter.resume(throwing: $0) }
  }

  /// Asks the writer to commit everything queued, close, and stop; later requests fail.
  func enqueueClose(_ waiter: CheckedContinuation<Void, any Error>) {
    enqueue {
      $0.batch.closeWaiters.append(waiter)
      $0.isClosed = true
    } orFail: {
      waiter.resume(throwing: $0)
    }
  }

  private func enqueue(_ add: (inout State) -> Void, orFail fail: (any Error) -> Void) {
    let accepted = state.withLock { state in
      guard !state.isClosed else { return false }
      add(&state)
      return true
    }
    guard accepted else { return fail(SessionPersistenceError.closed) }
    wakeUp.signal()
  }

  /// Blocks the writer until there is work: at once for waiters or a close, else when the
  /// oldest unwaited change is `batchDelay` old. Returns the batch and whether to stop after it.
  func nextBatch() -> (batch: Batch, isLast: Bool) {
    while true {
      let taken: (batch: Batch, isLast: Bool)?
      let wait: Duration?
      (taken, wait) = state.withLock { state in
        let isUrgent = state.isClosed || !state.batch.commitWaiters.isEmpty || !state.batch.loadWaiters.isEmpty
        let wait = isUrgent ? .zero : state.oldestUnwaitedChange.map { max(.zero, $0 + batchDelay - .now) }
        guard wait == .zero else { return (nil, wait) }
        defer {
          state.batch = Batch()
          state.oldestUnwaitedChange = nil
        }
        return ((state.batch, state.isClosed), nil)
      }
      if let taken { return taken }
      if let wait {
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(wait / .nanoseconds(1))))
      } else {
        wakeUp.wait()
      }
    }
  }

  /// Counts a committed transaction of `changeCount` changes.
  func recordCommit(changeCount: Int) {
    state.withLock { state in
      state.statistics.commits += 1
      state.statistics.writtenChanges += changeCount
    }
  }

  var statistics: PersistenceStatistics {
    state.withLock { $0.statistics }
  }

  /// Puts changes whose write failed back in front of newer ones, to be retried.
  func requeue(_ changes: [SessionID: PendingChange]) {
    state.withLock { state in
      for (id, change) in changes {
        state.batch.changes[id] = state.batch.changes[id].map { change.merged(with: $0) } ?? change
      }
      if state.oldestUnwaitedChange == nil { state.oldestUnwaitedChange = .now }
    }
  }
}
