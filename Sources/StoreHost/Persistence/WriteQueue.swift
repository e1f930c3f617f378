import Foundation
import Dispatch
import Synchronization

/// What callers hand the writer thread, and how the writer waits for it.
///
/// Callers add changes and waiters under the lock and wake the writer; the writer takes
/// everything pending in one go ("a batch"), so changes queued while it commits share the
/// next transaction.
final class WriteQueue: Sendable {
  /// Someone to tell when their request is done: an awaiting task or a callback.
  struct Waiter: Sendable {
    private let done: @Sendable (Result<Void, any Error>) -> Void

    init(_ continuation: CheckedContinuation<Void, any Error>) {
      done = { continuation.resume(with: $0) }
    }

    init(_ completion: @escaping @Sendable ((any Error)?) -> Void) {
      done = { result in
        if case .failure(let error) = result { completion(error) } else { completion(nil) }
      }
    }

    func resume(with result: Result<Void, any Error>) { done(result) }
    func resume(throwing error: any Error) { done(.failure(error)) }
    func resume() { done(.success(())) }
  }

  /// Everything the writer takes for one transaction.
  struct Batch {
    var changes: [SessionID: PendingChange] = [:]
    /// Resumed once their session's change committed.
    var changeWaiters: [SessionID: [Waiter]] = [:]
    /// Waiters among ``changeWaiters`` that want the writer to start at once.
    var urgentWaiters = 0
    /// Answers given before this are forgotten in the batch's transaction.
    var forgetAnswersBefore: Date?
    /// Every session's history is deleted first in the batch's transaction.
    var deleteAllHistory = false
    /// Flushes, resumed once every change committed.
    var flushWaiters: [Waiter] = []
    /// Probes, resumed with the outcome of a small write of their own after the changes.
    var probeWaiters: [Waiter] = []
    /// Resumed with every session after the changes committed.
    var loadWaiters: [CheckedContinuation<[SessionSnapshot], any Error>] = []
    /// Resumed with a session's stored history after the changes committed.
    var historyWaiters: [(id: SessionID, waiter: CheckedContinuation<[HistoryRecord], any Error>)] = []
    /// Resumed after the connection closed.
    var closeWaiters: [Waiter] = []
  }

  private struct State {
    var batch = Batch()
    /// When the oldest change without a waiter arrived: it is written by `batchDelay` later.
    var oldestUnwaitedChange: ContinuousClock.Instant?
    /// How long before that deadline the writer starts, so the commit ends by it: twice the
    /// last commit's duration, at least 20 ms and at most half the delay.
    var commitAllowance: Duration = .milliseconds(20)
    /// The changes of the last batch, to reserve room for the next.
    var lastBatchSize = 0
    /// The changes of the batch the writer holds, until it is done with it.
    var writing: [SessionID: PendingChange] = [:]
    var isClosed = false
    var statistics = PersistenceStatistics()

    /// Someone is waiting: the writer should start now.
    var isUrgent: Bool {
      isClosed || batch.urgentWaiters > 0 || !batch.flushWaiters.isEmpty || !batch.loadWaiters.isEmpty
        || !batch.historyWaiters.isEmpty || !batch.probeWaiters.isEmpty
    }
  }

  private let state = Mutex(State())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let batchDelay: Duration

  init(batchDelay: Duration) {
    self.batchDelay = batchDelay
  }

  /// Queues `change`, and `waiter` to resume once it committed. An `urgent` waiter starts
  /// the writer at once; otherwise the change is written within `batchDelay`. Returns
  /// `false` (and fails the waiter) once closed.
  @discardableResult
  func enqueue(_ id: SessionID, _ change: PendingChange, waiter: Waiter?, urgent: Bool = true) -> Bool {
    // The change this one replaces, with the state it holds, is let go after the lock.
    var replaced: PendingChange?
    let enqueued = enqueue { state in
      let merged = state.batch.changes[id].map { $0.merged(with: change) } ?? change
      replaced = state.batch.changes.updateValue(merged, forKey: id)
      if let waiter { state.batch.changeWaiters[id, default: []].append(waiter) }
      if waiter != nil && urgent {
        state.batch.urgentWaiters += 1
        return true
      }
      // Only the first change of a batch sets the writer's deadline; later ones need no wake-up.
      guard state.oldestUnwaitedChange == nil else { return false }
      state.oldestUnwaitedChange = .now
      return true
    } orFail: {
      waiter?.resume(throwing: $0)
    }
    _ = replaced.take()
    return enqueued
  }

  /// Has the next batch forget the answers given before `date`.
  func enqueueForgetAnswers(before date: Date) {
    enqueue { state in
      state.batch.forgetAnswersBefore = max(state.batch.forgetAnswersBefore ?? date, date)
      guard state.oldestUnwaitedChange == nil else { return false }
      state.oldestUnwaitedChange = .now
      return true
    } orFail: { _ in }
  }

  /// Has the next batch delete every session's history first, then resume `waiter` once
  /// it committed.
  func enqueueDeleteAllHistory(_ waiter: Waiter) {
    enqueue { state in
      state.batch.deleteAllHistory = true
      state.batch.flushWaiters.append(waiter)
      return true
    } orFail: {
      waiter.resume(throwing: $0)
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

  /// Asks the writer to commit everything queued, then a small write of its own, and
  /// resume `waiter` with how that went.
  func enqueueProbe(_ waiter: Waiter) {
    enqueue { state in
      state.batch.probeWaiters.append(waiter)
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

  /// Asks the writer to commit everything queued, then read the session `id`'s history for
  /// `waiter`.
  func enqueueHistoryLoad(_ id: SessionID, _ waiter: CheckedContinuation<[HistoryRecord], any Error>) {
    enqueue { state in
      state.batch.historyWaiters.append((id, waiter))
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
        let deadline = batchDelay - state.commitAllowance
        let wait = state.isUrgent ? .zero : state.oldestUnwaitedChange.map { max(.zero, $0 + deadline - .now) }
        guard wait == .zero else { return (nil, wait) }
        defer {
          state.writing = state.batch.changes
          state.lastBatchSize = state.batch.changes.count
          state.batch = Batch()
          state.batch.changes.reserveCapacity(state.lastBatchSize)
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

  /// The writer is done with the batch it took: committed, or put back (``requeue(_:)``).
  func finishedBatch() {
    state.withLock { $0.writing = [:] }
  }

  /// Whether a change of session `id` is queued or being written, not yet committed: what a
  /// reader beside the writer sees of it is older.
  func holdsUncommittedChange(of id: SessionID) -> Bool {
    state.withLock { $0.batch.changes[id] != nil || $0.writing[id] != nil }
  }

  /// Counts a committed transaction of `changeCount` changes that took `duration`.
  func recordCommit(changeCount: Int, duration: Duration) {
    state.withLock { state in
      state.commitAllowance = min(batchDelay / 2, max(.milliseconds(20), duration * 2))
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
