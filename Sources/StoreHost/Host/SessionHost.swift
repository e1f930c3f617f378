import Composable
import Foundation
import HTTP
import Synchronization

/// Hosts one root store per browser session behind the wire protocol of DESIGN.md.
///
/// ```swift
/// let host = SessionHost(
///   persistence: try await SQLiteSessionPersistence.open(path: "sessions.sqlite"),
///   tokenSigner: try SessionTokenSigner(secret: secret),
///   initialState: AppFeature.State()
/// ) {
///   AppFeature()
/// }
/// try await host.restoreSessions()
/// var router = Router()
/// host.addRoutes(to: &router)
/// ```
///
/// Sessions are independent: each store reduces its own actions in order and runs its own
/// effects, and a bad request to one session never touches another.
public final class SessionHost<State, Action>: Sendable
where State: Codable & Equatable & Sendable, Action: Codable & Sendable {
  public let configuration: SessionHostConfiguration
  let persistence: any SessionPersistence
  let tokenSigner: SessionTokenSigner
  let metrics = HostMetrics()
  private let makeInitialState: @Sendable () -> State
  /// Builds each session's store. Not `@Sendable` because reducer types need not be; it
  /// only builds fresh values from the reducer closure, so calling it from any task is safe.
  nonisolated(unsafe) private let makeStore: (State, EventFanout) -> Store<State, Action>
  private let sessions = Mutex<[SessionID: Session<State, Action>]>([:])
  private let evictionTask = Mutex<Task<Void, Never>?>(nil)

  /// A host whose sessions start from `initialState` and run `reducer`.
  ///
  /// - Parameters:
  ///   - prepareDependencies: Dependencies of every session's store (clients, clocks).
  public init<Feature: Reducer<State, Action>>(
    configuration: SessionHostConfiguration = SessionHostConfiguration(),
    persistence: any SessionPersistence,
    tokenSigner: SessionTokenSigner,
    initialState: @escaping @autoclosure @Sendable () -> State,
    reducer: @escaping () -> Feature,
    withDependencies prepareDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.persistence = persistence
    self.tokenSigner = tokenSigner
    self.makeInitialState = initialState
    self.makeStore = { state, events in
      Store(
        initialState: state,
        reducer: { ActionLogging(base: Reduce(reducer()), events: events) },
        withDependencies: prepareDependencies)
    }
  }

  /// The number of live sessions.
  public var sessionCount: Int { sessions.withLock { $0.count } }

  /// Loads the sessions saved by an earlier run, each at its saved state and version.
  /// - Returns: How many were restored.
  @discardableResult
  public func restoreSessions() async throws -> Int {
    let saved = try await persistence.loadAll()
    var restored: [Session<State, Action>] = []
    for snapshot in saved {
      guard let state = try? JSONDecoder().decode(State.self, from: snapshot.state) else {
        try await persistence.delete(snapshot.id)
        continue
      }
      restored.append(
        try Session(
          id: snapshot.id, state: state, version: snapshot.version, createdAt: snapshot.createdAt,
          limits: configuration.limits, persistence: persistence, makeStore: makeStore))
    }
    sessions.withLock { sessions in
      for session in restored { sessions[session.id] = session }
    }
    return restored.count
  }

  /// Starts ending sessions idle for longer than ``SessionLimits/idleTimeout`` (no action,
  /// no open event stream), checking every tenth of that time.
  public func startEvictingIdleSessions() {
    let interval = max(configuration.limits.idleTimeout / 10, .milliseconds(100))
    let task = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        await self?.evictIdleSessions()
      }
    }
    evictionTask.withLock { $0 = task }
  }

  /// Ends the sessions idle for longer than ``SessionLimits/idleTimeout``.
  public func evictIdleSessions(now: ContinuousClock.Instant = .now) async {
    let idle = sessions.withLock { sessions in
      sessions.values.filter {
        $0.events.clientCount == 0 && now - $0.lastActiveInstant > configuration.limits.idleTimeout
      }
    }
    for session in idle { await end(session) }
  }

  /// Stops evicting, saves every session's latest state, and closes the persistence.
  public func shutdown() async {
    evictionTask.withLock { $0?.cancel() }
    let all = sessions.withLock { Array($0.values) }
    for session in all { try? await session.flush() }
    try? await persistence.close()
  }

  // MARK: Sessions

  func session(_ id: SessionID) -> Session<State, Action>? {
    sessions.withLock { $0[id] }
  }

  var allSessions: [Session<State, Action>] { sessions.withLock { Array($0.values) } }

  /// Creates a session, or throws 503 when the host holds ``SessionLimits/maxSessions``.
  func createSession() throws -> Session<State, Action> {
    let session = try Session(
      id: .random(), state: makeInitialState(), version: 0, createdAt: Date(),
      limits: configuration.limits, persistence: persistence, makeStore: makeStore)
    let added = sessions.withLock { sessions in
      guard sessions.count < configuration.limits.maxSessions else { return false }
      sessions[session.id] = session
      return true
    }
    guard added else {
      session.end()
      throw HTTPError.atCapacity()
    }
    metrics.sessionsCreated.add(1, ordering: .relaxed)
    return session
  }

  /// Ends `session`: cancels its effects, ends its streams, forgets it.
  func end(_ session: Session<State, Action>) async {
    guard sessions.withLock({ $0.removeValue(forKey: session.id) }) != nil else { return }
    session.end()
    metrics.sessionsEnded.add(1, ordering: .relaxed)
    try? await persistence.delete(session.id)
  }
}
