import Synchronization

/// Whether a host's storage takes its writes: each save, reservation or deletion reports
/// how it went, and the host answers `GET /readyz`, refuses new work in fast mode once
/// writes have failed for longer than ``fastWindow``, and tells
/// ``SessionHostConfiguration/onStorageHealthChange`` when writing starts to fail and
/// when it works again.
public final class StorageHealth: Sendable {
  /// A change of the storage's health, told once per change.
  public enum Change: Sendable, Equatable {
    /// A write failed after the last one that worked; `cause` is the storage's error
    /// (for example `database or disk is full`).
    case failing(cause: String)
    /// A write worked again after `failedWrites` failed ones over `duration`.
    case recovered(after: Duration, failedWrites: Int)
  }

  /// The longest fast mode acknowledges changes while no write works: the promise that a
  /// crash loses at most about this much (the persistence's batch delay is far shorter).
  public static let fastWindow: Duration = .seconds(1)

  private struct State {
    var failingSince: ContinuousClock.Instant?
    var cause = ""
    var failuresSinceLastSuccess = 0
    var failedWrites = 0
    var episodes = 0
    /// Those waiting for writes to start failing (``waitUntilFailing()``), by their number.
    var failureWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }

  private let state = Mutex(State())
  private let onChange: (@Sendable (Change) -> Void)?

  /// Health that tells `onChange` of each change.
  public init(onChange: (@Sendable (Change) -> Void)? = nil) {
    self.onChange = onChange
  }

  /// Counts a write that worked: ends a failure, if there was one.
  public func recordSuccess() {
    let change = state.withLock { state -> Change? in
      guard let since = state.failingSince else { return nil }
      defer {
        state.failingSince = nil
        state.failuresSinceLastSuccess = 0
      }
      return .recovered(after: .now - since, failedWrites: state.failuresSinceLastSuccess)
    }
    if let change { onChange?(change) }
  }

  /// Counts a write that failed with `error`: starts a failure, unless one is on.
  public func recordFailure(_ error: any Error) {
    let (change, waiters) = state.withLock { state -> (Change?, [CheckedContinuation<Void, Never>]) in
      state.failedWrites += 1
      state.failuresSinceLastSuccess += 1
      guard state.failingSince == nil else { return (nil, []) }
      state.failingSince = .now
      state.cause = String(describing: error)
      state.episodes += 1
      defer { state.failureWaiters = [:] }
      return (.failing(cause: state.cause), Array(state.failureWaiters.values))
    }
    for waiter in waiters { waiter.resume() }
    if let change { onChange?(change) }
  }

  /// Returns once writes fail (at once if they do now), or once the calling task is
  /// cancelled: what waits costs nothing while storage works.
  func waitUntilFailing() async {
    let number = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state in
          if state.failingSince != nil || Task.isCancelled { return true }
          state.failureWaiters[number] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.failureWaiters.removeValue(forKey: number) }?.resume()
    }
  }

  /// Counts a write that worked when `error` is `nil`, one that failed otherwise.
  public func record(_ error: (any Error)?) {
    if let error { recordFailure(error) } else { recordSuccess() }
  }

  /// How long writes have been failing, `nil` while they work.
  public func failingDuration(now: ContinuousClock.Instant = .now) -> Duration? {
    state.withLock { $0.failingSince.map { now - $0 } }
  }

  /// Whether the last write failed.
  public var isFailing: Bool { state.withLock { $0.failingSince != nil } }

  /// Why writes fail, while they do.
  public var cause: String? { state.withLock { $0.failingSince == nil ? nil : $0.cause } }

  /// Writes that failed since the process started.
  public var failedWrites: Int { state.withLock { $0.failedWrites } }

  /// Times writing started to fail since the process started.
  public var failureEpisodes: Int { state.withLock { $0.episodes } }
}
