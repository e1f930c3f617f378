import Dispatch
import Synchronization

/// What callers hand the writer thread, and how the writer waits for it.
///
/// Callers add changes and waiters under the lock and wake the writer; the writer takes
/// everything pending in one go ("a batch"), so changes queued while it commits share the
/// next transaction.
final class WriteQueue: Sendable {
  typealias Waiter = CheckedContinuation<Void, any Error>

  /// Everything the writer takes for one transaction.
  struct Batch {
    var changes: [SessionID: PendingChange] = [:]
    /// Strict saves and deletes, resumed once their session's change committed.
    var changeWaiters: [SessionID: [Waiter]] = [:]
    /// Flushes, resumed once every change committed.
    var flushWaiters: [Waiter] = []
    /// Resumed with every session after the changes committed.
    var loadWaiters: [CheckedContinuation<[SessionSnapshot], any Error>] = []
    /// Resumed after the connection closed.
    var closeWaiters: [Waiter] = []
  }

  private struct State {
    var batch = Batch()
    /// When the oldest change without a waiter arrived: it is written by `batchDelay` later.
    var oldestUnwaitedChange: ContinuousClock.Instant?
    var isClosed = false
    var statistics = PersistenceStatistics()

    /// Someone is waiting: the writer should start now.
    var isUrgent: Bool {
      isClosed || !batch.changeWaiters.isEmpty || !batch.flushWaiters.isEmpty || !batch.loadWaiters.isEmpty
    }
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
  func enqueue(_ id: SessionID, _ change: PendingChange, waiter: Waiter?) -> Bool {
    enqueue { state in
      state.batch.changes[id] = state.batch.changes[id].map { $0.merged(with: change) } ?? change
      if let waiter {
        state.batch.changeWaiters[id, default: []].append(waiter)
        return true
      }
      // Only the first change of a batch sets the writer's deadline; later ones need no wake-up.
      guard state.oldestUnwaitedChange == nil else { return false }
      state.oldestUnwaitedChange = .now
      return true
    } orFail: {
      waiter?.resume(throwing: $0)
    }
  }

  /// Asks the writer to commit everything queued, then resume `waiter`.
  func enqueueFlush(_ waiter: Waiter) {
    enqueue { state in
      state.batch.flushWaiters.append(waiter)
      return true
    } orFail: {
      waiter.resume(throwing: $0)
    }
  }

  /// Asks the writer to commit everything queued, then read every session for `waiter`.
  func enqueueLoad(_ waiter: CheckedContinuation<[SessionSnapshot], any Error>) {
    enqueue { state in
      state.batch.loadWaiters.append(waiter)
      return true
    } orFail: {
      waiter.resume(throwing: $0)
    }
  }

  /// Asks the writer to commit everything queued, close, and stop; later requests fail.
  /// Without a `waiter` nobody hears how the last commit went.
  func enqueueClose(_ waiter: Waiter?) {
    enqueue { state in
      if let waiter { state.batch.closeWaiters.append(waiter) }
      state.isClosed = true
      return true
    } orFail: {
      waiter?.resume(throwing: $0)
    }
  }

  /// Runs `add` on the state unless closed; `add` returns whether the writer must wake up.
  @discardableResult
  private func enqueue(_ add: (inout State) -> Bool, orFail fail: (any Error) -> Void) -> Bool {
    let wake: Bool? = state.withLock { state in
      guard !state.isClosed else { return nil }
      return add(&state)
    }
    guard let wake else {
      fail(SessionPersistenceError.closed)
      return false
    }
    if wake { wakeUp.signal() }
    return true
  }

  /// Blocks the writer until there is work: at once for waiters or a close, else when the
  /// oldest unwaited change is `batchDelay` old. Returns the batch and whether to stop after it.
  func nextBatch() -> (batch: Batch, isLast: Bool) {
    while true {
      let taken: (batch: Batch, isLast: Bool)?
      let wait: Duration?
      (taken, wait) = state.withLock { state in
        let wait = state.isUrgent ? .zero : state.oldestUnwaitedChange.map { max(.zero, $0 + batchDelay - .now) }
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

  /// Puts changes whose write failed back behind newer ones, to be retried after `batchDelay`.
  func requeue(_ changes: [SessionID: PendingChange]) {
    state.withLock { state in
      for (id, change) in changes {
        state.batch.changes[id] = state.batch.changes[id].map { change.merged(with: $0) } ?? change
      }
      if state.oldestUnwaitedChange == nil { state.oldestUnwaitedChange = .now }
    }
  }
}
