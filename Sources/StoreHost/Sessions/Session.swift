@_spi(Hosting) import Composable
import Foundation
import StoreHostJSON
import Synchronization

/// One browser session: a root store, its published versions, and its limits.
///
/// The session's version is the version it was restored at plus the store's own count of
/// state changes, so versions keep growing across restarts.
///
/// No version a client saw ever names another state, even after a crash: a version is
/// published (streamed, or reported by an answer) only once a save reserving it is durable.
/// Each save reserves ``reservationWindow`` versions past its own (none in strict mode, so
/// only durable versions are published), and a session read back after a crash goes on past
/// the reserved ones (``SessionSnapshot/resumedVersion``).
///
/// Every change costs what changed: the store asks the session about each change before it
/// becomes a version (``SessionChanges``), which diffs it against the previous version
/// and checks the size limit; the patch found there is what `?patch=1` streams get, and the
/// state's JSON is made once per version, only when a client, a read or a save needs it.
final class Session<State: Codable & Equatable & Sendable, Action: Encodable & Sendable>: Sendable {
  let id: SessionID
  let store: Store<State, Action>
  let events: EventFanout
  let createdAt: Date
  private let baseVersion: Int
  private let persistence: any SessionPersistence
  /// How many versions past its own a save reserves for publishing before the next one is
  /// durable: 0 in strict mode, where only durable versions are published.
  let reservationWindow: Int
  /// The state version (``Composable/MigratableState``) saves are written in.
  private let stateVersion: Int
  /// The ownership epoch in a cluster (see ``SessionSnapshot/epoch``), written with every save.
  let epoch: Int
  /// What a failed save does: on one process in fast mode, the change stays and is saved
  /// again shortly; in strict mode and in a cluster, the session stops saving, so a change
  /// answered as not applied never becomes durable, and the host drops it (the next request
  /// starts from the durable state).
  private let keepsUnsavedChanges: Bool
  /// Told how each save went.
  private let storageHealth: StorageHealth?
  private let changes: SessionChanges<State>
  private let activity: Mutex<Activity>
  private let publishing: Mutex<Publishing>
  private let idempotency: Mutex<IdempotencyLedger>
  private let observation: Mutex<StoreObservation?> = Mutex(nil)
  private let admission = Mutex(Admission())
  /// Held while one request's actions are sent, so a batch is applied with no other
  /// request's actions in between, and while the store is torn down: `true` once it is.
  private let batches = Mutex(false)

  /// The requests being served, and whether the session is leaving this process.
  private struct Admission {
    var inFlight = 0
    var isLeaving = false
    var whenIdle: [CheckedContinuation<Void, Never>] = []
  }
  /// The session's recent history, when the host keeps one (see ``SessionHistory``).
  let history: HistoryRecorder<State, Action>?

  private struct Activity {
    var lastActiveAt: Date
    var lastActiveInstant: ContinuousClock.Instant
    var rateLimit: TokenBucket<ContinuousClock.Instant>
  }

  /// Versions on their way from the store to clients and to storage.
  private struct Publishing {
    /// Changes from the store not yet made into versions; one flush at a time.
    var pending: [SessionChanges<State>.Change] = []
    var isFlushing = false
    /// The latest version made: what the next save writes.
    var latest: PublishedState
    /// Versions made but above ``publishLimit``, oldest first.
    var unpublished: [PublishedState] = []
    /// The highest version clients may see: what the last durable save reserved.
    var publishLimit: Int
    var durableVersion: Int
    /// Requests holding saves back until they recorded their answer (see ``holdSaves()``).
    var saveHolds = 0
    /// A save was skipped while held; the release makes it.
    var isSaveDeferred = false
    /// The latest version was not saved: it changed only keyed shared values, stored with
    /// their keys, and the last durable save's reservation covers it.
    var isLatestUnsaved = false
    /// Ended or finished: nothing more is published, and only saves already queued (and a
    /// final save) are made.
    var isClosed = false
    /// A failed save is to be made again shortly.
    var isRetryScheduled = false
    /// Saves handed to the persistence and not answered yet, and the highest version and
    /// reservation they cover.
    var pendingSaves = 0
    var queuedVersion = -1
    var queuedReservation = -1
    /// In a cluster: the version of the oldest failed save no later durable save covered;
    /// the error of the last save that certainly did not commit; and the newest version
    /// whose save may have committed although it failed (``SaveOutcomeUnknown``).
    var failedVersion: Int?
    var definiteFailure: (any Error)?
    var unknownThrough = -1
    /// In a cluster: why nothing more is saved, after a failure no later save made good.
    var brokenBy: (any Error)?
    /// Why the session was ended: the error for waiters of versions no queued save covers.
    var closedWith: (any Error)?
    var durableWaiters: [(version: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var publishWaiters: [(version: Int, continuation: CheckedContinuation<Void, any Error>)] = []

    /// The error for a waiter of `version` once saving stopped on `error`: its change may be
    /// durable when a save covering it ended with an unknown outcome.
    func error(for version: Int, _ error: any Error) -> any Error {
      version <= unknownThrough ? SaveOutcomeUnknown() : error
    }

    /// Why a waiter for `version` (durable, or publishable) fails at once; `nil` when a save
    /// may still satisfy it.
    func failure(waitingFor version: Int, durable: Bool) -> (any Error)? {
      if let brokenBy { return error(for: version, brokenBy) }
      guard let closedWith, version > (durable ? queuedVersion : queuedReservation) else { return nil }
      return closedWith
    }

    /// Removes and returns the waiters of `waiters` whose versions `isTaken` picks. An emptied
    /// list keeps no storage: an idle session holds none.
    static func take(
      _ waiters: inout [(version: Int, continuation: CheckedContinuation<Void, any Error>)],
      where isTaken: (Int) -> Bool
    ) -> [(version: Int, continuation: CheckedContinuation<Void, any Error>)] {
      let taken = waiters.filter { isTaken($0.version) }
      if taken.count == waiters.count {
        waiters = []
      } else {
        waiters.removeAll { isTaken($0.version) }
      }
      return taken
    }

    /// Removes the waiters of `waiters` whose versions are at most `version` and returns their
    /// continuations.
    static func take(
      _ waiters: inout [(version: Int, continuation: CheckedContinuation<Void, any Error>)], through version: Int
    ) -> [CheckedContinuation<Void, any Error>] {
      take(&waiters) { $0 <= version }.map(\.continuation)
    }

    /// Removes and returns the waiters whose versions no queued save covers.
    mutating func takeUncoveredWaiters() -> [(version: Int, continuation: CheckedContinuation<Void, any Error>)] {
      let (queuedVersion, queuedReservation) = (queuedVersion, queuedReservation)
      return Self.take(&durableWaiters) { $0 > queuedVersion } + Self.take(&publishWaiters) { $0 > queuedReservation }
    }

    /// Removes and returns every waiter.
    mutating func takeAllWaiters() -> [(version: Int, continuation: CheckedContinuation<Void, any Error>)] {
      defer {
        durableWaiters = []
        publishWaiters = []
      }
      return durableWaiters + publishWaiters
    }

    /// Takes the versions now at or below the limit, joined into one.
    mutating func takePublishable() -> PublishedState? {
      let ready = unpublished.prefix { $0.version <= publishLimit }
      guard let first = ready.first else { return nil }
      unpublished.removeFirst(ready.count)
      return ready.count == 1 ? first : PublishedState(joining: Array(ready))
    }
  }

  /// A session whose store starts from `initialState()` at `version`; the state is made,
  /// and the store runs, with `dependencies` applied. A restored session (`restored` set)
  /// is durable at `version` with versions up to `publishLimit` reserved, and starts with
  /// the answers saved with it; a new one is not saved until ``saveLatest()``, and may
  /// publish up to the first save's reservation, which no stored row can contradict.
  /// `history`, when given, records the session from here (its store tells it every action).
  init(
    id: SessionID,
    version: Int,
    createdAt: Date,
    restored: (answers: [RememberedAnswer], publishLimit: Int)?,
    limits: SessionLimits,
    durability: Durability,
    stateVersion: Int,
    epoch: Int = 0,
    keepsUnsavedChanges: Bool = true,
    storageHealth: StorageHealth? = nil,
    persistence: any SessionPersistence,
    history: HistoryRecorder<State, Action>? = nil,
    initialState: () throws -> State,
    dependencies: @escaping (inout DependencyValues) -> Void,
    makeStore: StoreFactory<State, Action>
  ) throws {
    self.id = id
    self.baseVersion = version
    self.createdAt = createdAt
    self.persistence = persistence
    self.reservationWindow = durability == .strict ? 0 : Self.fastReservationWindow
    self.stateVersion = stateVersion
    self.epoch = epoch
    self.keepsUnsavedChanges = keepsUnsavedChanges
    self.storageHealth = storageHealth
    self.history = history
    let state = try withDependencies(dependencies) { try initialState() }
    let initial = StoreSnapshot(state: state, version: 0)
    let json = try initial.encodedState().trimmed()
    let changes = SessionChanges(initial: initial, size: json.count, maxSize: limits.maxStateBytes)
    self.changes = changes
    history?.begin(restored == nil ? .created : .resumed, at: version, json: json)
    let published = PublishedState(version: version, json: json)
    self.events = EventFanout(initial: published, historyLength: limits.eventHistoryLength)
    self.publishing = Mutex(
      Publishing(
        latest: published, publishLimit: restored?.publishLimit ?? version + reservationWindow,
        durableVersion: restored == nil ? version - 1 : version))
    self.store = makeStore(state, dependencies, events, history) { next in
      guard changes.accept(next) else {
        history?.didRefuse()
        return false
      }
      return true
    }
    changes.adoptInitial(store.snapshot)
    self.activity = Mutex(
      Activity(
        lastActiveAt: Date(), lastActiveInstant: .now,
        rateLimit: TokenBucket(limits: limits, now: .now)))
    idempotency = Mutex(IdempotencyLedger(
      lifetime: limits.idempotencyKeyLifetime, maxAnswers: limits.maxIdempotencyAnswers, restored: restored?.answers ?? []))
    let observation = store.observe { [weak self] snapshot in self?.stateDidChange(snapshot) }
    self.observation.withLock { $0 = observation }
  }

  /// Versions a fast-mode save reserves past its own: far more than a session makes between
  /// two saves (at most the persistence's batch delay apart), so publishing never waits for
  /// a save in practice, and the jump after a crash stays small.
  static var fastReservationWindow: Int { 10_000 }

  /// The current version.
  var version: Int { baseVersion + store.version }

  /// The current state and version.
  var snapshot: (state: State, version: Int) {
    let snapshot = store.snapshot
    return (snapshot.state, baseVersion + snapshot.version)
  }

  /// The newest state's JSON and version that clients may see: the store's current state
  /// when its version is reserved (in strict mode, durable), else the latest published one.
  func currentJSON() throws -> (json: [UInt8], version: Int) {
    let latest = events.latest
    let current = store.snapshot
    let version = baseVersion + current.version
    guard version != latest.version, version <= publishing.withLock({ $0.publishLimit }) else {
      return (try latest.json(), latest.version)
    }
    return (try current.encodedState(), version)
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

  /// Whether the session could rest: unused for `duration`, no stream open, no effect
  /// running, no request being served and none holding its saves.
  func isIdle(for duration: Duration, now: ContinuousClock.Instant = .now) -> Bool {
    events.clientCount == 0 && store.runningEffectCount == 0 && now - lastActiveInstant >= duration
      && admission.withLock { $0.inFlight == 0 } && publishing.withLock { $0.saveHolds == 0 }
  }

  /// Whether the session ended or finished.
  var isClosed: Bool { publishing.withLock { $0.isClosed } }

  /// Lets the session publish versions up to `version`, which a durable write reserved.
  func raisePublishLimit(to version: Int) {
    let ready = publishing.withLock { publishing -> [CheckedContinuation<Void, any Error>] in
      guard version > publishing.publishLimit else { return [] }
      publishing.publishLimit = version
      if !publishing.isClosed, let released = publishing.takePublishable() { events.publish(released) }
      return Publishing.take(&publishing.publishWaiters, through: version)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once a version at or after `version` has been saved.
  func waitUntilDurable(_ version: Int) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = publishing.withLock { publishing -> Result<Void, any Error>? in
        if publishing.durableVersion >= version { return .success(()) }
        if let error = publishing.failure(waitingFor: version, durable: true) { return .failure(error) }
        publishing.durableWaiters.append((version, continuation))
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }

  /// Whether `version` may be shown to clients already (see ``waitUntilPublishable(_:)``).
  func isPublishable(_ version: Int) -> Bool {
    publishing.withLock { $0.publishLimit >= version }
  }

  /// Returns once `version` may be shown to clients: a durable save reserved it (with
  /// strict durability, it is durable itself). Throws when the save that would have
  /// reserved it failed.
  func waitUntilPublishable(_ version: Int) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = publishing.withLock { publishing -> Result<Void, any Error>? in
        if publishing.publishLimit >= version { return .success(()) }
        if let error = publishing.failure(waitingFor: version, durable: false) { return .failure(error) }
        publishing.publishWaiters.append((version, continuation))
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }

  /// Queues a save of the latest version, with the answers given so far: a new session
  /// outlives a restart before any change. ``waitUntilDurable(_:)`` tells when it is durable;
  /// a save `awaited` so is committed without waiting for the persistence's batch delay.
  func saveLatest(awaited: Bool = false) {
    let latest = publishing.withLock { $0.latest }
    var save = save(of: latest)
    save.isAwaited = awaited
    queueSave(save)
  }

  // MARK: Idempotency keys

  /// Admits an actions request sent with `key` and body `digest` (see ``IdempotencyLedger``).
  func admitIdempotent(_ key: String, digest: String) -> IdempotencyLedger.Admission {
    idempotency.withLock { $0.admit(key, digest: digest, now: Date()) }
  }

  /// Updates the ledger of `Idempotency-Key` requests (see ``IdempotencyLedger``). An
  /// answer recorded there is saved with the next save, in the same write as the state it
  /// reports.
  func updateIdempotency(_ update: (inout IdempotencyLedger) -> Void) {
    idempotency.withLock { update(&$0) }
  }

  /// Holds this session's saves back until ``releaseSaves()``: a request with an
  /// `Idempotency-Key` holds them from before its first action until its answer is
  /// recorded, so the answer is written in the same save as the state it reports, never a
  /// state without its answer; a request of several actions holds them while it applies
  /// them, so they are saved once. Versions made meanwhile are still published as far as
  /// the reservation allows.
  func holdSaves() {
    publishing.withLock { $0.saveHolds += 1 }
  }

  /// Ends a ``holdSaves()``; the last release saves the latest version if a save was held.
  func releaseSaves() {
    let deferred = publishing.withLock { publishing -> PublishedState? in
      publishing.saveHolds -= 1
      guard publishing.saveHolds == 0, publishing.isSaveDeferred, !publishing.isClosed else { return nil }
      publishing.isSaveDeferred = false
      return publishing.latest
    }
    if let deferred { queueSave(save(of: deferred)) }
  }

  /// Forgets the session's history, which starts again at the current version, and saves
  /// that, so the stored history goes too.
  func clearHistory() {
    history?.clear()
    saveLatest()
  }

  /// Waits until every change so far is published and saved.
  func flush() async throws {
    let unsaved = publishing.withLock { publishing -> PublishedState? in
      guard publishing.isLatestUnsaved, !publishing.isClosed else { return nil }
      publishing.isLatestUnsaved = false
      return publishing.latest
    }
    if let unsaved { queueSave(save(of: unsaved)) }
    try await waitUntilDurable(version)
  }

  /// Runs `body`, which sends one request's actions to the store, with no other request's
  /// actions sent meanwhile (effects may still send theirs).
  /// - Returns: What `body` returned, or `nil` without running it once the session ended
  ///   or finished: its store takes no more actions, so a request must not be answered as
  ///   if they were applied (a session dropped or replaced while a request was on its way).
  func applyingBatch<T>(_ body: () -> T) -> T? {
    batches.withLock { isTornDown in isTornDown ? nil : body() }
  }

  /// Tears the store down between two batches, never in the middle of one.
  private func tearDownStore() {
    batches.withLock { isTornDown in
      isTornDown = true
      store.tearDown()
    }
  }

  // MARK: Requests and departure

  /// Counts a request that is about to be served here.
  /// - Returns: `false` when the session is leaving this process: the request must wait until
  ///   it left, then find where it went.
  func enter() -> Bool {
    admission.withLock { admission in
      guard !admission.isLeaving else { return false }
      admission.inFlight += 1
      return true
    }
  }

  /// Ends a request counted by ``enter()``.
  func exit() {
    let waiters = admission.withLock { admission -> [CheckedContinuation<Void, Never>] in
      admission.inFlight -= 1
      guard admission.inFlight == 0 else { return [] }
      defer { admission.whenIdle = [] }
      return admission.whenIdle
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Whether the session is leaving this process.
  var isLeaving: Bool { admission.withLock { $0.isLeaving } }

  /// Admits no more requests: the session is leaving this process.
  /// - Returns: Whether it was not leaving already (the caller leads the departure).
  func startLeaving() -> Bool {
    admission.withLock { admission in
      defer { admission.isLeaving = true }
      return !admission.isLeaving
    }
  }

  /// Admits requests again: a departure that could not be completed (its save failed).
  func stopLeaving() {
    admission.withLock { $0.isLeaving = false }
  }

  /// Returns once no request admitted by ``enter()`` is being served.
  func waitForRequests() async {
    await withCheckedContinuation { continuation in
      let isIdle = admission.withLock { admission in
        if admission.inFlight > 0 { admission.whenIdle.append(continuation) }
        return admission.inFlight == 0
      }
      if isIdle { continuation.resume() }
    }
  }

  // MARK: Ending

  /// Ends the session: cancels its effects and ends its event streams. Nothing more is
  /// saved; saves already queued still answer their waiters, and the waiters of versions no
  /// save covers fail with `error`.
  func end(failingWaitersWith error: any Error = CancellationError()) {
    observation.withLock { $0?.cancel() }
    tearDownStore()
    close(failingUncoveredWaitersWith: error)
    events.close()
  }

  /// Ends the session after saving its final state durably, with nothing reserved past it:
  /// every version clients saw is then durable, so the session goes on from exactly this
  /// version when it is read back (after a clean shutdown, or in another process). Saves
  /// already queued are made first, in order, and every waiter is answered with the outcome
  /// of the save that covers its version.
  func finish() async throws {
    observation.withLock { $0?.cancel() }
    tearDownStore()
    defer { events.close() }
    let current = store.snapshot
    let version = baseVersion + current.version
    let size = changes.size
    let history = history?.saving(through: version)
    let final = SessionSave(
      id: id, version: version, stateVersion: stateVersion, reservedVersion: version, createdAt: createdAt,
      lastActiveAt: activity.withLock { $0.lastActiveAt }, epoch: epoch,
      encodeState: { try current.encodedState(capacity: size + 64) },
      newAnswers: { [self] in idempotency.withLock { $0.unsavedAnswers(through: version) } },
      newHistory: history?.write)
    if let error = publishing.withLock({ publishing -> (any Error)? in
      publishing.isClosed = true
      return publishing.brokenBy
    }) {
      throw error
    }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      queueSave(final) { error in
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
      }
    }
  }

  /// Stops publishing and saving, and fails whoever waits for a version no queued save covers.
  private func close(failingUncoveredWaitersWith error: any Error) {
    let waiters = publishing.withLock { publishing in
      publishing.isClosed = true
      publishing.closedWith = error
      return publishing.takeUncoveredWaiters()
    }
    for waiter in waiters { waiter.continuation.resume(throwing: error) }
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
    history?.didPublish(change, version: baseVersion + snapshot.version)
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

  /// Makes versions of the pending changes until none is left, publishes those the
  /// reservation covers, and saves the latest. Changes that arrive while this runs make one
  /// version together: the latest state, with the patches of all of them joined. Saves are
  /// queued, not awaited; each reports when it is durable (``didCommit(_:error:)``).
  private func flushPending() {
    while let batch = publishing.withLock({ publishing -> [SessionChanges<State>.Change]? in
      defer { publishing.pending = [] }
      if publishing.pending.isEmpty { publishing.isFlushing = false }
      return publishing.pending.isEmpty ? nil : publishing.pending
    }) {
      let latest = batch.last!
      let version = baseVersion + latest.snapshot.version
      let size = changes.size
      let made = PublishedState(
        version: version, patch: joinedPatch(of: batch), encode: { try latest.snapshot.encodedState(capacity: size + 64) })
      let saveNow = publishing.withLock { publishing -> Bool in
        guard !publishing.isClosed else { return false }
        publishing.latest = made
        if publishing.unpublished.isEmpty && version <= publishing.publishLimit {
          events.publish(made)
        } else {
          publishing.unpublished.append(made)
          if let ready = publishing.takePublishable() { events.publish(ready) }
        }
        guard publishing.saveHolds == 0 else {
          publishing.isSaveDeferred = true
          return false
        }
        publishing.isLatestUnsaved = skipsSave(of: batch, version: version, publishLimit: publishing.publishLimit)
        return !publishing.isLatestUnsaved
      }
      if saveNow { queueSave(save(of: made)) }
    }
  }

  /// Whether `batch`, making `version`, goes unsaved: it changed only keyed shared values
  /// (a shared counter's change reaching every session), which are stored with their keys,
  /// so the saved state stands for it, and the last durable save's reservation still
  /// covers it with room to spare: after a crash the session goes on past it. Strict mode
  /// (no reservation) and persistences whose saves feed the streams save every version.
  private func skipsSave(of batch: [SessionChanges<State>.Change], version: Int, publishLimit: Int) -> Bool {
    // A closure, not a key path: a key path into a generic class is instantiated per call.
    batch.allSatisfy { $0.changedOnlyKeyedValues } && reservationWindow > 0 && !persistence.streamsFromSaves
      && version + reservationWindow / 2 <= publishLimit
  }

  /// A save of `published`, reserving ``reservationWindow`` versions past it, with the
  /// answers and the history not saved yet.
  private func save(of published: PublishedState) -> SessionSave {
    let version = published.version
    let history = history?.saving(through: version)
    var save = SessionSave(
      id: id, version: version, stateVersion: stateVersion, reservedVersion: version + reservationWindow,
      createdAt: createdAt, lastActiveAt: activity.withLock { $0.lastActiveAt }, epoch: epoch,
      encodeState: { try published.json() },
      newAnswers: { [self] in idempotency.withLock { $0.unsavedAnswers(through: version) } },
      newHistory: history?.write)
    save.didCommitHistory = history?.didCommit
    return save
  }

  /// Hands `save` to the persistence, unless saving stopped after a failure (then `completion`
  /// gets why); `completion` is called after the waiters the save satisfies were resumed.
  private func queueSave(_ save: SessionSave, completion: (@Sendable ((any Error)?) -> Void)? = nil) {
    let brokenBy = publishing.withLock { publishing -> (any Error)? in
      guard publishing.brokenBy == nil else { return publishing.brokenBy }
      publishing.pendingSaves += 1
      publishing.queuedVersion = max(publishing.queuedVersion, save.version)
      publishing.queuedReservation = max(publishing.queuedReservation, save.reservedVersion)
      return nil
    }
    if let brokenBy { return completion?(brokenBy) ?? () }
    persistence.save(save) { [weak self, commit = SaveCommit(save)] error in
      self?.didCommit(commit, error: error)
      completion?(error)
    }
  }

  /// What ``didCommit(_:error:)`` needs of a save. Not the save itself: its state, let go
  /// once a newer save replaces it in the persistence's queue, would be kept until the
  /// commit, and freed on the writer's thread.
  private struct SaveCommit: Sendable {
    let version: Int
    let reservedVersion: Int
    let didCommitHistory: (@Sendable () -> Void)?

    init(_ save: SessionSave) {
      (version, reservedVersion, didCommitHistory) = (save.version, save.reservedVersion, save.didCommitHistory)
    }
  }

  private typealias Waiter = (continuation: CheckedContinuation<Void, any Error>, error: (any Error)?)

  /// A save became durable, or failed: publishes what its reservation covers and resumes
  /// the waiters it satisfies. On one process, a failed save fails the waiters of its
  /// versions and is made again shortly (with the latest state), so the session's versions
  /// reach clients once storage recovers. In a cluster, a failure waits for the saves queued
  /// after it, which cover its versions too: once none is left and none made it good, saving
  /// stops and every waiter fails.
  private func didCommit(_ save: SaveCommit, error: (any Error)?) {
    // A save refused because another process owns the session now says nothing of storage.
    if !(error is SessionOwnershipLost) { storageHealth?.record(error) }
    if error == nil {
      idempotency.withLock { $0.didSave(through: save.version) }
      save.didCommitHistory?()
    }
    let (ready, retry) = publishing.withLock { publishing -> ([Waiter], Bool) in
      publishing.pendingSaves -= 1
      var ready: [Waiter] = []
      if let error {
        if keepsUnsavedChanges {
          ready += Publishing.take(&publishing.durableWaiters, through: save.version).map { ($0, error) }
          ready += Publishing.take(&publishing.publishWaiters, through: save.reservedVersion).map { ($0, error) }
          guard !publishing.isClosed, !publishing.isRetryScheduled else { return (ready, false) }
          publishing.isRetryScheduled = true
          return (ready, true)
        }
        if error is SaveOutcomeUnknown {
          publishing.unknownThrough = max(publishing.unknownThrough, save.version)
        } else {
          publishing.definiteFailure = error
        }
        publishing.failedVersion = min(publishing.failedVersion ?? save.version, save.version)
      } else {
        publishing.durableVersion = max(publishing.durableVersion, save.version)
        publishing.publishLimit = max(publishing.publishLimit, save.reservedVersion)
        if let failed = publishing.failedVersion, save.version >= failed { publishing.failedVersion = nil }
        if !publishing.isClosed, let released = publishing.takePublishable() { events.publish(released) }
        let durable = publishing.durableVersion
        let limit = publishing.publishLimit
        ready += Publishing.take(&publishing.durableWaiters, through: durable).map { ($0, nil) }
        ready += Publishing.take(&publishing.publishWaiters, through: limit).map { ($0, nil) }
      }
      if publishing.pendingSaves == 0, publishing.failedVersion != nil {
        let error = publishing.definiteFailure ?? SaveOutcomeUnknown()
        publishing.brokenBy = error
        ready += publishing.takeAllWaiters().map { ($0.continuation, publishing.error(for: $0.version, error)) }
      }
      return (ready, false)
    }
    for (continuation, error) in ready {
      if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
    if retry {
      Task { [weak self] in
        try? await Task.sleep(for: .milliseconds(100))
        guard let self else { return }
        // An ended session saves nothing more: its deletion may be queued already.
        let latest = publishing.withLock { publishing -> PublishedState? in
          publishing.isRetryScheduled = false
          return publishing.isClosed ? nil : publishing.latest
        }
        if let latest { queueSave(self.save(of: latest)) }
      }
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
}
