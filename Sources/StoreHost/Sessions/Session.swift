import Composable
import Foundation
import Synchronization

/// One browser session: a root store, its published versions, and its limits.
///
/// The session's version is the version it was restored at plus the store's own count of
/// state changes, so versions keep growing across restarts.
final class Session<State: Codable & Equatable & Sendable, Action: Sendable>: Sendable {
  let id: SessionID
  let store: Store<State, Action>
  let events: EventFanout
  let createdAt: Date
  private let baseVersion: Int
  private let persistence: any SessionPersistence
  private let activity: Mutex<Activity>
  private let publishing = Mutex(Publishing())
  private let observation: Mutex<StoreObservation?> = Mutex(nil)

  private struct Activity {
    var lastActiveAt: Date
    var lastActiveInstant: ContinuousClock.Instant
    var rateLimit: TokenBucket<ContinuousClock.Instant>
  }

  /// Versions waiting to be encoded, published and saved, one flush at a time.
  private struct Publishing {
    var pending: StoreSnapshot<State>?
    var isFlushing = false
    var durableVersion = 0
    var durableWaiters: [(version: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  /// A session whose store starts from `initialState()` at `version`; the state is made,
  /// and the store runs, with `dependencies` applied.
  init(
    id: SessionID,
    version: Int,
    createdAt: Date,
    limits: SessionLimits,
    persistence: any SessionPersistence,
    initialState: () throws -> State,
    dependencies: @escaping (inout DependencyValues) -> Void,
    makeStore: StoreFactory<State, Action>
  ) throws {
    self.id = id
    self.baseVersion = version
    self.createdAt = createdAt
    self.persistence = persistence
    let state = try withDependencies(dependencies) { try initialState() }
    self.events = EventFanout(
      initial: PublishedState(version: version, value: try JSONValue(encoding: state)),
      historyLength: limits.eventHistoryLength)
    self.store = makeStore(state, dependencies, events)
    self.activity = Mutex(
      Activity(
        lastActiveAt: Date(), lastActiveInstant: .now,
        rateLimit: TokenBucket(limits: limits, now: .now)))
    publishing.withLock { $0.durableVersion = version }
    let observation = store.observe { [weak self] snapshot in self?.stateDidChange(snapshot) }
    self.observation.withLock { $0 = observation }
  }

  /// The current version.
  var version: Int { baseVersion + store.snapshot.version }

  /// The current state and version.
  var snapshot: (state: State, version: Int) {
    let snapshot = store.snapshot
    return (snapshot.state, baseVersion + snapshot.version)
  }

  /// Takes `count` actions from the rate limit, marking the session active.
  func admit(actions count: Int) -> TokenBucket<ContinuousClock.Instant>.Decision {
    activity.withLock { activity in
      let now = ContinuousClock.now
      activity.lastActiveAt = Date()
      activity.lastActiveInstant = now
      return activity.rateLimit.take(count, at: now)
    }
  }

  /// Marks the session active now.
  func touch() {
    activity.withLock {
      $0.lastActiveAt = Date()
      $0.lastActiveInstant = .now
    }
  }

  /// When the session was last used.
  var lastActiveInstant: ContinuousClock.Instant { activity.withLock { $0.lastActiveInstant } }

  /// Returns once a version at or after `version` has been saved.
  func waitUntilDurable(_ version: Int) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let isDurable = publishing.withLock { publishing in
        if publishing.durableVersion >= version { return true }
        publishing.durableWaiters.append((version, continuation))
        return false
      }
      if isDurable { continuation.resume() }
    }
  }

  /// Waits until every change so far is published and saved.
  func flush() async throws {
    try await waitUntilDurable(version)
  }

  /// Ends the session: cancels its effects and ends its event streams.
  func end() {
    observation.withLock { $0?.cancel() }
    store.tearDown()
    events.close()
    let waiters = publishing.withLock { publishing in
      defer { publishing.durableWaiters = [] }
      return publishing.durableWaiters
    }
    for waiter in waiters { waiter.continuation.resume(throwing: CancellationError()) }
  }

  // MARK: Publishing

  /// Called by the store, inside its serial section, for each new version.
  private func stateDidChange(_ snapshot: StoreSnapshot<State>) {
    guard snapshot.version > 0 else { return }
    let startFlush = publishing.withLock { publishing in
      publishing.pending = snapshot
      defer { publishing.isFlushing = true }
      return !publishing.isFlushing
    }
    if startFlush { Task { await flushPending() } }
  }

  /// Encodes, publishes and saves the latest pending version until none is left. Versions
  /// that arrive while one is being saved are coalesced into the next save.
  private func flushPending() async {
    while let snapshot = publishing.withLock({ publishing -> StoreSnapshot<State>? in
      defer { publishing.pending = nil }
      if publishing.pending == nil { publishing.isFlushing = false }
      return publishing.pending
    }) {
      let version = baseVersion + snapshot.version
      do {
        let value = try JSONValue(encoding: snapshot.state)
        let published = PublishedState(version: version, value: value)
        events.publish(published)
        try await persistence.save(
          SessionSnapshot(
            id: id, version: version, state: Data(published.text.utf8), createdAt: createdAt,
            lastActiveAt: activity.withLock { $0.lastActiveAt }))
        markDurable(version, error: nil)
      } catch {
        markDurable(version, error: error)
      }
    }
  }

  /// Resumes the waiters for `version` and older: they succeed when it was saved, and get
  /// `error` when its save failed.
  private func markDurable(_ version: Int, error: (any Error)?) {
    let ready = publishing.withLock { publishing in
      if error == nil { publishing.durableVersion = max(publishing.durableVersion, version) }
      defer { publishing.durableWaiters.removeAll { $0.version <= version } }
      return publishing.durableWaiters.filter { $0.version <= version }.map(\.continuation)
    }
    for continuation in ready {
      if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
  }
}
