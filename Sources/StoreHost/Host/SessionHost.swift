@_spi(Hosting) import Composable
import Foundation
import HTTP
import Synchronization

/// Builds a session's store from its initial state, its dependencies, the fanout its action
/// log goes to, the recorder of its history (if kept), and the check each change must pass
/// to become a version.
typealias StoreFactory<State: Sendable, Action: Sendable> =
  (
    State, @escaping (inout DependencyValues) -> Void, EventFanout, (any StoreActionObserver<Action>)?,
    @escaping @Sendable (StoreSnapshot<State>) -> Bool
  ) -> Store<State, Action>

/// Hosts one root store per browser session behind the wire protocol (<doc:WireProtocol>).
///
/// ```swift
/// let host = SessionHost(
///   persistence: try await SQLiteSessionPersistence.open(path: "sessions.sqlite"),
///   tokenSigner: try SessionTokenSigner(secret: secret),
///   initialState: AppFeature.State()
/// ) {
///   AppFeature()
/// }
/// var router = Router()
/// host.addRoutes(to: &router)
/// ```
///
/// Sessions are independent: each store reduces its own actions in order and runs its own
/// effects, and a bad request to one session never touches another. Each store's
/// `DependencyValues.sessionID` is its session's id, so `@Shared(.inMemory(name, scope:
/// .session))` values belong to one session (and are dropped with it), while other shared
/// keys are shared by every session of the process.
///
/// Sessions live in memory while they are used and rest in storage otherwise: a session
/// idle for ``SessionLimits/restAfter`` is saved and leaves memory, and is brought back
/// on its next request (`liveSession(_:)`), so a restart serves at once and memory grows
/// with active sessions, not saved ones.
public final class SessionHost<State, Action>: Sendable
where State: Codable & Equatable & Sendable, Action: Codable & Sendable {
  public let configuration: SessionHostConfiguration
  let persistence: any SessionPersistence
  let tokenSigner: SessionTokenSigner
  /// Set when several processes share the sessions (see ``SessionCluster``).
  let cluster: (any SessionCluster)?
  /// In a cluster: the event streams, fed with the durable versions every process announces.
  let followers: SessionFollowers?
  /// In a cluster: sends requests to the processes owning their sessions.
  let forwarder: RequestForwarder?
  /// In a cluster: which process forwards each session's requests here.
  let forwardStreaks = ForwardStreaks()
  /// In a cluster: where clients' actions are reduced, off the event loops.
  let reducerThreads: ReducerThreads?
  let metrics = HostMetrics()
  /// Whether storage takes the host's writes (`GET /readyz`, and fast mode's refusals).
  public let storageHealth: StorageHealth
  let makeInitialState: @Sendable () -> State
  /// Builds each session's store. Not `@Sendable` because reducer types need not be; it
  /// only builds fresh values from the reducer closure, so calling it from any task is safe.
  nonisolated(unsafe) private let makeStore: StoreFactory<State, Action>
  /// The feature's reducer, for replaying a session's history. Not `@Sendable` for the same
  /// reason; a reducer holds no per-store state, so reducing with it from any task is safe.
  nonisolated(unsafe) let feature: Reduce<State, Action>
  /// The feature's type, module first (`StoreHostDemo.AppFeature`): what a test exported
  /// from a session's history runs.
  let featureTypeName: String
  /// Sent to a session's store when it is rebuilt from its saved state (see ``init(configuration:persistence:cluster:tokenSigner:initialState:reducer:withDependencies:resumedAction:)``).
  private let resumedAction: Action?
  let prepareDependencies: @Sendable (inout DependencyValues) -> Void
  /// The sessions in memory, and those moving between memory and storage.
  let sessions = Mutex(LiveSessions<State, Action>())
  /// Saved sessions this build cannot read, with why: kept, never served or deleted here.
  let unreadable = Mutex<[SessionID: UnreadableSession]>([:])
  private let evictionTask = Mutex<Task<Void, Never>?>(nil)
  /// Probes storage while its writes fail (see ``startProbingFailedStorage()``).
  private let probeTask = Mutex<Task<Void, Never>?>(nil)
  /// Renews this process's lease in a cluster (see ``joinCluster(advertising:)``).
  let renewalTask = Mutex<Task<Void, Never>?>(nil)
  /// Watches open on this host's sessions (a stream of several sessions counts once for each):
  /// the `everyone` of `presence` events.
  let openStreams = Atomic<Int>(0)
  /// Tells presence watchers of changes of ``openStreams`` (see ``startReportingPresence()``).
  private let presenceTask = Mutex<Task<Void, Never>?>(nil)
  /// Where the sessions' `.inMemory(_, scope: .session)` shared values live.
  let inMemoryStorage: InMemoryStorage
  /// ``schema``'s JSON, made at the first `GET /api/schema`.
  let schemaJSON = Mutex<[UInt8]?>(nil)

  /// A host whose sessions start from `initialState` and run `reducer`.
  ///
  /// - Parameters:
  ///   - cluster: Set to share sessions with other processes (`StoreHostPostgres`'s
  ///     `PostgresCluster`); `persistence` must then be the cluster's, and every process's
  ///     `tokenSigner` must have the same secret (it also signs forwarded requests).
  ///   - prepareDependencies: Dependencies of every session's store (clients, clocks), on top
  ///     of the live values, which sessions use even in a test process.
  ///   - resumedAction: Sent to a session's store each time the session is rebuilt from its
  ///     saved state in a process (after a restart, or when another process of a cluster
  ///     takes it over). Effects do not outlive their process: handle this action to start
  ///     again what should keep running, such as a timer that was on.
  public init<Feature: Reducer<State, Action>>(
    configuration: SessionHostConfiguration = SessionHostConfiguration(),
    persistence: any SessionPersistence,
    cluster: (any SessionCluster)? = nil,
    tokenSigner: SessionTokenSigner,
    initialState: @escaping @autoclosure @Sendable () -> State,
    reducer: @escaping () -> Feature,
    withDependencies prepareDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
    resumedAction: Action? = nil
  ) {
    self.configuration = configuration
    self.resumedAction = resumedAction
    self.persistence = persistence
    self.cluster = cluster
    self.tokenSigner = tokenSigner
    self.storageHealth = StorageHealth(onChange: configuration.onStorageHealthChange)
    self.followers = cluster.map { SessionFollowers(cluster: $0, historyLength: configuration.limits.eventHistoryLength) }
    self.forwarder = cluster.map { RequestForwarder(processID: $0.processID, signer: tokenSigner) }
    self.reducerThreads = cluster.map { _ in ReducerThreads(count: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)) }
    self.makeInitialState = initialState
    // A host serves: its sessions run on live dependencies, in a test process too, except
    // for what `prepareDependencies` overrides.
    let hostDependencies: @Sendable (inout DependencyValues) -> Void = { values in
      values.context = .live
      prepareDependencies(&values)
    }
    self.inMemoryStorage = withDependencies(hostDependencies) {
      @Dependency(\.defaultInMemoryStorage) var storage
      return storage
    }
    self.prepareDependencies = hostDependencies
    // Built once and shared by every session's store: a reducer is a value holding no
    // per-store state (dependencies are read per action, effects belong to each store).
    let feature = Reduce(reducer())
    self.feature = feature
    self.featureTypeName = String(reflecting: Feature.self)
    self.makeStore = { state, dependencies, events, actionObserver, acceptChange in
      Store(
        initialState: state,
        reducer: { ActionLogging(base: feature, events: events) },
        withDependencies: dependencies,
        acceptingChange: acceptChange,
        observingActions: actionObserver)
    }
    // An owner announces the actions of the sessions that `?log=1` streams watch anywhere.
    followers?.whenActionWatchChanged { [weak self] id, watched in
      guard let self, let session = session(id) else { return }
      watchActions(of: session, watched)
    }
  }

  /// The smallest `HTTP/ServerConfiguration/eventStreamBufferLimit` that lets an event
  /// stream queue the `state` event of the largest state actions may make
  /// (``SessionLimits/maxStateBytes``); give the server at least this.
  public var eventStreamBufferLimit: Int { configuration.limits.maxStateBytes + 4096 }

  /// The number of live sessions.
  public var sessionCount: Int { sessions.withLock { $0.live.count } }

  /// The state a snapshot saved, read as bringing the session back reads it
  /// (``SessionStateReader``), with the host's dependencies and the session's id.
  func readState(of snapshot: SessionSnapshot) throws -> State {
    try SessionStateReader(prepareDependencies: prepareDependencies, makeInitialState: makeInitialState).read(snapshot)
  }

  /// Starts telling the sessions' presence watchers how many streams the host has open,
  /// about once a second and only when the number changed; a stream's own session tells
  /// it of its own clients at once. Started by the first stream that asks for presence.
  func startReportingPresence() {
    presenceTask.withLock { task in
      guard task == nil else { return }
      task = Task { [weak self] in
        var reported = -1
        while !Task.isCancelled, let host = self {
          let count = host.openStreams.load(ordering: .relaxed)
          if count != reported {
            reported = count
            for session in host.allSessions { session.events.updateEveryone(count) }
            host.followers?.updateEveryone(count)
          }
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
  }

  /// Starts the housekeeping that keeps memory for active sessions. Every tenth of
  /// ``SessionLimits/restAfter`` (or of ``SessionLimits/idleTimeout``, if shorter), sessions
  /// in memory idle for that long (no request, no open stream, no running effect) go to rest
  /// in storage, and those idle for longer than ``SessionLimits/idleTimeout`` end. Every
  /// tenth of ``SessionLimits/idleTimeout`` (or of ``SessionLimits/idempotencyKeyLifetime``,
  /// if shorter), and no more often, storage is swept: stored sessions idle for longer than
  /// ``SessionLimits/idleTimeout`` end, and stored answers older than
  /// ``SessionLimits/idempotencyKeyLifetime`` are forgotten. In a cluster, idle sessions are
  /// given up instead, and deleted once no process serves them.
  /// A host that keeps no history (``SessionHostConfiguration/historyLength`` 0) first
  /// deletes any history stored while it was kept, trying again on each check until it did.
  /// While writes to storage fail, storage is probed until they work again.
  public func startEvictingIdleSessions() {
    let limits = configuration.limits
    let interval = max(min(limits.restAfter, limits.idleTimeout) / 10, .milliseconds(100))
    // Sweeping storage reads and writes the database; a fraction of the limits it keeps is
    // precise enough, and an idle server then wakes its storage once a minute, not every few
    // seconds.
    let sweepInterval = max(interval, min(limits.idleTimeout, limits.idempotencyKeyLifetime) / 10)
    let keepsHistory = configuration.historyLength > 0
    let task = Task { [weak self] in
      var historyDeleted = keepsHistory
      var lastSweep = ContinuousClock.now
      while !Task.isCancelled {
        if !historyDeleted, let self { historyDeleted = (try? await persistence.deleteAllHistory()) != nil }
        try? await Task.sleep(for: interval)
        guard let self else { return }
        let now = ContinuousClock.now
        let sweeps = now - lastSweep >= sweepInterval
        if sweeps { lastSweep = now }
        await evictIdleSessions(now: now, sweepingStorage: sweeps)
        if sweeps {
          let lifetime = configuration.limits.idempotencyKeyLifetime.secondsValue
          try? await persistence.forgetAnswers(answeredBefore: Date().addingTimeInterval(-lifetime))
        }
      }
    }
    evictionTask.withLock { $0 = task }
    startProbingFailedStorage()
  }

  /// While writes to storage fail, probes it twice a second (``SessionPersistence/probe()``),
  /// so that readiness and fast mode's refusals end once it takes writes again, even when
  /// no session saves meanwhile (strict mode undoes failed changes; a balancer sends no
  /// traffic to a process that is not ready). While writes work it waits without waking.
  private func startProbingFailedStorage() {
    let health = storageHealth
    let task = Task { [weak self] in
      while !Task.isCancelled {
        await health.waitUntilFailing()
        try? await Task.sleep(for: .milliseconds(500))
        guard let self else { return }
        guard storageHealth.isFailing else { continue }
        do {
          try await persistence.probe()
          storageHealth.recordSuccess()
        } catch {
          storageHealth.recordFailure(error)
        }
      }
    }
    probeTask.withLock { $0 = task }
  }

  deinit {
    // The probing task waits on the storage's health without holding the host: it ends with it.
    probeTask.withLock { $0?.cancel() }
  }

  /// Puts to rest the sessions idle for ``SessionLimits/restAfter`` and ends those idle for
  /// longer than ``SessionLimits/idleTimeout``, in memory and in storage; in a cluster,
  /// gives up those idle for ``SessionLimits/idleTimeout`` and deletes the stored ones that
  /// no process serves (``SessionCluster/deleteExpired(idleFor:stateVersion:limit:)``).
  public func evictIdleSessions(now: ContinuousClock.Instant = .now) async {
    await evictIdleSessions(now: now, sweepingStorage: true)
  }

  /// Evicts the idle sessions in memory; with `sweepingStorage`, also those idle in storage.
  private func evictIdleSessions(now: ContinuousClock.Instant, sweepingStorage: Bool) async {
    let limits = configuration.limits
    let expired = allSessions.filter { $0.events.clientCount == 0 && now - $0.lastActiveInstant > limits.idleTimeout }
    for session in expired {
      if cluster != nil { await depart(session, to: nil) } else { await end(session) }
    }
    if let cluster {
      guard sweepingStorage else { return }
      let deleted = try? await cluster.deleteExpired(
        idleFor: limits.idleTimeout, stateVersion: SavedState.version(of: State.self), limit: 1000)
      metrics.sessionsEnded.add(deleted?.count ?? 0, ordering: .relaxed)
      return
    }
    // While writes fail, sessions stay live: a rest would only find it cannot save them.
    guard !storageHealth.isFailing else { return }
    for session in allSessions where session.isIdle(for: limits.restAfter, now: now) { await rest(session) }
    if sweepingStorage { await endExpiredRestingSessions() }
  }

  /// Stops evicting, ends every session with its final state saved (so each goes on from
  /// exactly that version when it is read back), gives up its sessions in a cluster, and
  /// closes the persistence.
  public func shutdown() async {
    evictionTask.withLock { $0?.cancel() }
    probeTask.withLock { $0?.cancel() }
    presenceTask.withLock { $0?.cancel() }
    let all = allSessions
    await withTaskGroup(of: Void.self) { group in
      for session in all where session.startLeaving() {
        group.addTask {
          await session.waitForRequests()
          try? await session.finish()
        }
      }
    }
    await leaveCluster()
    try? await persistence.close()
  }

  // MARK: Sessions

  /// A session at a saved snapshot's state, at `reservation`'s version, publishing up to
  /// its reserved version; throws when this build cannot read the state.
  func session(restoring snapshot: SessionSnapshot, reservation: SessionReservation) throws -> Session<State, Action> {
    let state = try readState(of: snapshot)
    let history = makeHistory(restoring: snapshot.history)
    return try Session(
      id: snapshot.id, version: reservation.version, createdAt: snapshot.createdAt,
      restored: (snapshot.answers, reservation.reservedVersion), limits: configuration.limits,
      durability: configuration.durability, stateVersion: SavedState.version(of: State.self), epoch: snapshot.epoch,
      keepsUnsavedChanges: keepsUnsavedChanges, storageHealth: storageHealth, persistence: persistence,
      history: history, initialState: { state },
      dependencies: dependencies(of: snapshot.id, history: history), makeStore: makeStore)
  }

  /// Whether a session whose save failed keeps the change and saves it again shortly: on one
  /// process in fast mode, where the change was acknowledged already. In strict mode and in
  /// a cluster a failed save is undone instead: the session is dropped and the next request
  /// brings it back at its last saved state, so an answer that says "not applied" is true.
  var keepsUnsavedChanges: Bool { cluster == nil && configuration.durability == .fast }

  /// A recorder of a session's history going on from `restored`, when the host keeps one.
  private func makeHistory(restoring restored: [HistoryRecord] = []) -> HistoryRecorder<State, Action>? {
    guard configuration.historyLength > 0 else { return nil }
    return HistoryRecorder(
      capacity: configuration.historyLength, maxBytes: configuration.limits.maxHistoryBytes,
      stateVersion: SavedState.version(of: State.self),
      keepsSavedSteps: !persistence.storesHistory, restored: restored)
  }

  /// Sends ``resumedAction`` to a session rebuilt from its saved state.
  func resume(_ session: Session<State, Action>) {
    if let resumedAction { session.store.send(resumedAction) }
  }

  /// The dependencies of a session's store: the host's, and the session's id; with a
  /// history, the UUIDs and dates its reducer draws are recorded.
  private func dependencies(
    of id: SessionID, history: HistoryRecorder<State, Action>?
  ) -> (inout DependencyValues) -> Void {
    { [prepareDependencies] values in
      prepareDependencies(&values)
      values.sessionID = id.rawValue
      if let history {
        values.uuid = history.recording(values.uuid)
        values.date = history.recording(values.date)
      }
    }
  }

  /// The session in memory under `id`.
  func session(_ id: SessionID) -> Session<State, Action>? {
    sessions.withLock { $0.live[id] }
  }

  var allSessions: [Session<State, Action>] { sessions.withLock { Array($0.live.values) } }

  /// Adds `session` unless one with its id is live already, at the same or a later epoch.
  /// - Returns: The session now live under that id, and the one it replaced (of an earlier
  ///   epoch, which can save nothing more), to end.
  func adoptSession(_ session: Session<State, Action>) -> (kept: Session<State, Action>, replaced: Session<State, Action>?) {
    sessions.withLock { sessions in
      let live = sessions.live[session.id]
      if let live, live.epoch >= session.epoch { return (live, nil) }
      sessions.live[session.id] = session
      return (session, live)
    }
  }

  /// Removes `session` if it is the live one under its id.
  /// - Returns: Whether it was removed.
  func forgetSession(_ session: Session<State, Action>) -> Bool {
    let removed = sessions.withLock { sessions in
      guard sessions.live[session.id] === session else { return false }
      sessions.live[session.id] = nil
      return true
    }
    if removed { forwardStreaks.forget(session.id) }
    return removed
  }

  /// Creates a session starting from the state `initialState` makes with the session's
  /// dependencies (the host's initial state when `nil`), stored before this returns (so a
  /// client never holds the token of a session a crash forgot), or throws 503 when the host
  /// holds ``SessionLimits/maxSessions`` in memory and none of them can go to rest, or when
  /// storage does not take it. In a cluster it is stored owned by this process, so any
  /// process can find it.
  func createSession(initialState: (() -> State)? = nil) async throws -> Session<State, Action> {
    try checkStorageTakesChanges()
    let id = SessionID.random()
    let history = makeHistory()
    let session = try Session(
      id: id, version: 0, createdAt: Date(), restored: nil, limits: configuration.limits,
      durability: configuration.durability, stateVersion: SavedState.version(of: State.self),
      epoch: cluster == nil ? 0 : 1, keepsUnsavedChanges: keepsUnsavedChanges, storageHealth: storageHealth,
      persistence: persistence, history: history, initialState: initialState ?? makeInitialState,
      dependencies: dependencies(of: id, history: history), makeStore: makeStore)
    do {
      try await makeRoom()
    } catch {
      session.end()
      throw error
    }
    _ = adoptSession(session)
    if let cluster {
      try await register(session, in: cluster)
    } else {
      session.saveLatest(awaited: true)
      do {
        try await session.waitUntilDurable(0)
      } catch {
        await end(session)
        throw HTTPError.storageUnavailable()
      }
    }
    metrics.sessionsCreated.add(1, ordering: .relaxed)
    return session
  }

  /// Ends `session`: cancels its effects, ends its streams, forgets it and deletes it. Until
  /// the deletion is committed, a request for it waits, then finds no session: reading its
  /// stored row, it would bring the session back.
  func end(_ session: Session<State, Action>) async {
    let id = session.id
    let ended = AsyncStream.makeStream(of: Never.self)
    let deleting = sessions.withLock { table -> Task<SessionMove, Never>? in
      guard table.live[id] === session else { return nil }
      table.live[id] = nil
      let deleting = Task { [self] in
        // Deleted once the session saves no more.
        for await _ in ended.stream {}
        try? await persistence.delete(id)
        try? await persistence.flush()
        sessions.withLock { $0.moving[id] = nil }
        return SessionMove.notFound
      }
      table.moving[id] = deleting
      return deleting
    }
    guard let deleting else { return }
    session.end()
    ended.continuation.finish()
    forwardStreaks.forget(id)
    cluster?.didRelease(id, epoch: session.epoch)
    inMemoryStorage.removeValues(forSession: id.rawValue)
    metrics.sessionsEnded.add(1, ordering: .relaxed)
    _ = await deleting.value
  }
}
