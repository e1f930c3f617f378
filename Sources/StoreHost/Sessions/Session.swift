@_spi(Hosting) import Composable
import Foundation
import Synchronization

/// One browser session: a root store, its published versions, and its limits.
///
/// The session's version is the version it was restored at plus the store's own count of
/// state changes, so versions keep growing across restarts.
///
/// Every change costs what changed: the store asks the session about each change before it
/// becomes a version (``SessionChanges``), which diffs it against the previous version
/// and checks the size limit; the patch found there is what `?patch=1` streams get, and the
/// state's JSON is made once per version, only when a client, a read or a save needs it.
final class Session<State: Codable & Equatable & Sendable, Action: Sendable>: Sendable {
  let id: SessionID
  let store: Store<State, Action>
  let events: EventFanout
  let createdAt: Date
  private let baseVersion: Int
  private let persistence: any SessionPersistence
  private let changes: SessionChanges<State>
  private let activity: Mutex<Activity>
  private let publishing = Mutex(Publishing())
  private let idempotency: Mutex<IdempotencyLedger>
  private let observation: Mutex<StoreObservation?> = Mutex(nil)

  private struct Activity {
    var lastActiveAt: Date
    var lastActiveInstant: ContinuousClock.Instant
    var rateLimit: TokenBucket<ContinuousClock.Instant>
  }

  /// Versions waiting to be published and saved, one flush at a time.
  private struct Publishing {
    var pending: [SessionChanges<State>.Change] = []
    var isFlushing = false
    var durableVersion = 0
    var durableWaiters: [(version: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  /// A session whose store starts from `initialState()` at `version`; the state is made,
  /// and the store runs, with `dependencies` applied. `answers` are those restored with a
  /// saved session (whose `version` is then durable); a new session has none and is not
  /// saved until ``saveCurrent()``.
  init(
    id: SessionID,
    version: Int,
    createdAt: Date,
    restoredAnswers answers: [RememberedAnswer]?,
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
    let initial = StoreSnapshot(state: state, version: 0)
    let json = try initial.encodedState().trimmed()
    let changes = SessionChanges(initial: initial, size: json.count, maxSize: limits.maxStateBytes)
    self.changes = changes
    self.events = EventFanout(
      initial: PublishedState(version: version, json: json), historyLength: limits.eventHistoryLength)
    self.store = makeStore(state, dependencies, events) { changes.accept($0) }
    changes.adoptInitial(store.snapshot)
    self.activity = Mutex(
      Activity(
        lastActiveAt: Date(), lastActiveInstant: .now,
        rateLimit: TokenBucket(limits: limits, now: .now)))
    publishing.withLock { $0.durableVersion = answers == nil ? version - 1 : version }
    idempotency = Mutex(
      IdempotencyLedger(
        capacity: limits.idempotencyKeys, lifetime: limits.idempotencyKeyLifetime, answers: answers ?? []))
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

  /// The current state's JSON and version: the published one when it is current.
  func currentJSON() throws -> (json: [UInt8], version: Int) {
    let latest = events.latest
    let current = store.snapshot
    if latest.version == baseVersion + current.version { return (try latest.json(), latest.version) }
    return (try current.encodedState(), baseVersion + current.version)
  }

  /// Why the store last refused a change (see ``SessionChanges``).
  var lastRefusal: SessionChanges<State>.Refusal? { changes.lastRefusal }

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

  /// Saves the latest published version now, with the answers kept so far: a new session
  /// outlives a restart before any change, and an answer given after its version was saved
  /// is saved too. Returns when the persistence took it (with strict durability, on disk).
  func saveCurrent() async throws {
    let published = events.latest
    try await persistence.save(save(of: published))
    markDurable(published.version, error: nil)
  }

  private func save(of published: PublishedState) -> SessionSave {
    let version = published.version
    return SessionSave(
      id: id, version: version, createdAt: createdAt, lastActiveAt: activity.withLock { $0.lastActiveAt },
      encodeState: { try published.json() },
      answers: { [self] in idempotency.withLock { $0.answers(through: version) } })
  }

  // MARK: Idempotency keys

  /// Admits an actions request sent with `key` and body `digest` (see ``IdempotencyLedger``).
  func admitIdempotent(_ key: String, digest: String) -> IdempotencyLedger.Admission {
    idempotency.withLock { $0.admit(key, digest: digest, now: Date()) }
  }

  /// Ends the request with `key`, remembering `answer` if it changed the session.
  func finishIdempotent(_ key: String, answer: RememberedAnswer?) {
    idempotency.withLock { $0.finish(key, answer: answer) }
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

  /// States up to this many bytes of JSON are published on the thread that changed them,
  /// right after the store's serial section; larger ones by a task of their own, so that
  /// versions arriving meanwhile are encoded once, together.
  private static var inlinePublishingLimit: Int { 16 * 1024 }

  /// Called by the store, inside its serial section, for each new version.
  private func stateDidChange(_ snapshot: StoreSnapshot<State>) {
    guard snapshot.version > 0 else { return }
    let change = changes.didPublish(snapshot)
    let startFlush = publishing.withLock { publishing in
      publishing.pending.append(change)
      defer { publishing.isFlushing = true }
      return !publishing.isFlushing
    }
    guard startFlush else { return }
    if changes.size <= Self.inlinePublishingLimit {
      Store<State, Action>.afterSerialSection { [self] in flushPending() }
    } else {
      Task { flushPending() }
    }
  }

  /// Publishes and saves the pending versions until none is left. Versions that arrive
  /// while this runs are published together: the latest state, with the patches of all of
  /// them joined. Saves are queued, not awaited; the persistence tells when each is durable.
  private func flushPending() {
    while let batch = publishing.withLock({ publishing -> [SessionChanges<State>.Change]? in
      defer { publishing.pending = [] }
      if publishing.pending.isEmpty { publishing.isFlushing = false }
      return publishing.pending.isEmpty ? nil : publishing.pending
    }) {
      let latest = batch.last!
      let version = baseVersion + latest.snapshot.version
      let size = changes.size
      let published = PublishedState(
        version: version, patch: joinedPatch(of: batch), encode: { try latest.snapshot.encodedState(capacity: size + 64) })
      events.publish(published)
      persistence.save(save(of: published)) { [self] error in markDurable(version, error: error) }
    }
  }

  /// The patch from the version before `batch` to its last one, when every step has one.
  private func joinedPatch(of batch: [SessionChanges<State>.Change]) -> VersionPatch? {
    var joined: VersionPatch?
    for change in batch {
      guard let patch = change.patch else { return nil }
      let step = VersionPatch(from: baseVersion + change.snapshot.version - 1, patch)
      joined = joined.map { $0.followed(by: step) } ?? step
    }
    return joined
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
