import Foundation
import StoreHost
import Synchronization

/// Several StoreHost processes sharing one PostgreSQL database, without sticky sessions:
/// leases that give each session one owner at an epoch (see `SessionLeases`), the
/// announcements that feed every process's event streams, values shared by every process,
/// and `?log=1` across processes.
///
/// ```swift
/// let persistence = try await PostgresSessionPersistence.open(url: url, processID: PostgresCluster.newProcessID(), durability: .strict)
/// let cluster = PostgresCluster(persistence: persistence)
/// let host = SessionHost(persistence: persistence, cluster: cluster, ...)
/// try await host.joinCluster(advertising: "http://10.0.0.5:8080")
/// ```
///
/// A process serves a session only while `LeaseTable` says it may: its lease holds (its
/// last heartbeat is recent enough, and it holds its liveness lock) and the session was
/// confirmed since the last time a pause or a lost connection may have let another process
/// take it. Otherwise the host asks the database first.
public final class PostgresCluster: SessionCluster {
  /// How long a process's sessions stay its own after its last heartbeat, by default (see
  /// `SessionLeases`).
  public static let defaultLeaseDuration = SessionLeases.defaultLeaseDuration
  /// How much sooner than the database this process considers its own lease over: room
  /// for the heartbeat's own round trip and for clocks that run at slightly different rates.
  static let leaseSafetyMargin: Duration = .milliseconds(500)
  /// Renewals between two that read every session this process owns, even without a gap.
  static let renewalsPerFullCheck = 20

  let persistence: PostgresSessionPersistence
  let leases: SessionLeases
  /// Values shared by every process, by key (what ``ClusterSharedKey`` uses).
  public let sharedValues: ClusterSharedValues
  let listener: PostgresListener
  let liveness: ProcessLiveness
  private let table: Mutex<LeaseTable>
  private let notifications: ClusterNotifications
  private let renewals = Atomic<Int>(0)
  private let counters: ClusterCounters

  /// Starts listening for the announcements of every process on `persistence`'s database.
  public init(persistence: PostgresSessionPersistence) {
    self.persistence = persistence
    self.leases = SessionLeases(
      pool: persistence.pool, processID: persistence.processID, leaseDuration: persistence.leaseDuration)
    self.table = Mutex(LeaseTable(lease: persistence.leaseDuration, margin: Self.leaseSafetyMargin, now: .now))
    let sharedValues = ClusterSharedValues(pool: persistence.pool, processID: persistence.processID)
    self.sharedValues = sharedValues
    let liveness = ProcessLiveness(processID: persistence.processID)
    self.liveness = liveness
    self.counters = ClusterCounters()
    let notifications = ClusterNotifications(sharedValues: sharedValues, liveness: liveness)
    self.notifications = notifications
    self.listener = PostgresListener(
      url: persistence.pool.url, channels: ClusterNotifications.channels, handler: notifications)
    liveness.whenChanged { [weak self] held in
      self?.table.withLock { held ? $0.lockAcquired() : $0.lockLost(now: .now) }
    }
  }

  /// A fresh id for this process: its pid (for people reading the tables) and 64 random bits
  /// (so a restarted process never inherits a dead one's leases).
  public static func newProcessID() -> String {
    var generator = SystemRandomNumberGenerator()
    return "\(getpid())-\(String(generator.next(), radix: 36))"
  }

  public var processID: String { persistence.processID }
  public var renewalInterval: Duration { SessionLeases.renewalInterval }
  public var leaseDuration: Duration { leases.leaseDuration }

  /// Takes this process's liveness lock, registers its address, starts its lease and loads
  /// the shared values.
  public func join(advertising address: String, announcements receiver: any ClusterAnnouncementReceiver)
    async throws
  {
    notifications.receiver.withLock { $0 = receiver }
    await liveness.waitUntilHeld()
    try await leases.register(address: address)
    _ = await renew()
    try await sharedValues.loadAll()
  }

  public func leave() async {
    try? await leases.releaseAll()
    table.withLock { $0.releaseAll() }
    listener.stop()
    notifications.receiver.withLock { $0 = nil }
  }

  // MARK: Ownership

  public func acquire(_ id: SessionID, stateVersion: Int, reservationWindow: Int) async throws -> ClusterAcquisition {
    let ticket = table.withLock { $0.begin(now: .now) }
    let (acquisition, beat) = try await leases.acquire(
      id, stateVersion: stateVersion, reservationWindow: reservationWindow)
    table.withLock { table in
      let confirmed = beat.map { table.renewed(ticket, stored: $0.stored, after: $0.after, now: .now) } ?? ticket
      if case .acquired(let snapshot) = acquisition { table.confirm(id, epoch: snapshot.epoch, confirmed) }
    }
    if case .acquired = acquisition { counters.takeovers.add(1, ordering: .relaxed) }
    return acquisition
  }

  public func didCreate(_ id: SessionID, epoch: Int, at start: ContinuousClock.Instant) {
    table.withLock { $0.confirmCreated(id, epoch: epoch, startedAt: start) }
  }

  public var holdsLease: Bool {
    table.withLock { $0.holdsLease(now: .now) }
  }

  public func isServing(_ id: SessionID, epoch: Int) -> Bool {
    table.withLock { $0.isServing(id, epoch: epoch, now: .now) }
  }

  public func verify(_ id: SessionID, epoch: Int) async throws -> Bool {
    let ticket = table.withLock { $0.begin(now: .now) }
    let (owned, beat) = try await leases.verify(id, epoch: epoch)
    table.withLock { table in
      let confirmed = table.renewed(ticket, stored: beat.stored, after: beat.after, now: .now)
      if owned { table.confirm(id, epoch: epoch, confirmed) } else { table.release(id, epoch: epoch) }
    }
    return owned
  }

  /// Renews the heartbeat on the listener's connection, which proves the liveness lock is
  /// still held; reads every owned session after a gap (and every
  /// `renewalsPerFullCheck` renewals).
  public func renew() async -> [SessionID] {
    let count = renewals.add(1, ordering: .relaxed).newValue
    if count % (Int(ActionWatches.renewal / renewalInterval)) == 0 { notifications.renewWatches(processID: processID, on: listener) }
    var lost: [SessionID] = []
    for attempt in 0..<2 {
      let (ticket, readOwned) = table.withLock { table in
        (table.begin(now: .now), table.needsFullCheck || (attempt == 0 && count % Self.renewalsPerFullCheck == 0))
      }
      guard let renewal = await renew(readOwned: readOwned) else { break }
      let needsCheck = table.withLock { table -> Bool in
        let confirmed = table.renewed(ticket, stored: renewal.beat.stored, after: renewal.beat.after, now: .now)
        if let owned = renewal.owned { lost += table.checked(owned: owned, confirmed) }
        return table.needsFullCheck
      }
      guard needsCheck, renewal.owned == nil else { break }
    }
    counters.sessionsLost.add(lost.count, ordering: .relaxed)
    return lost
  }

  private func renew(readOwned: Bool) async -> (beat: SessionLeases.Beat, owned: [SessionID: Int]?)? {
    await withCheckedContinuation { continuation in
      listener.submit { [processID] connection in
        guard let connection else { return continuation.resume(returning: nil) }
        continuation.resume(returning: try? SessionLeases.renew(processID, on: connection, readOwned: readOwned))
      }
    }
  }

  public func adoptOrphans(limit: Int, activeWithin recently: Duration, stateVersion: Int, reservationWindow: Int)
    async throws -> [SessionSnapshot]
  {
    let ticket = table.withLock { $0.begin(now: .now) }
    let orphans = try await leases.adoptOrphans(
      limit: limit, activeWithin: recently, stateVersion: stateVersion, reservationWindow: reservationWindow)
    table.withLock { table in
      for snapshot in orphans { table.confirm(snapshot.id, epoch: snapshot.epoch, ticket) }
    }
    counters.takeovers.add(orphans.count, ordering: .relaxed)
    return orphans
  }

  public func deleteExpired(idleFor idle: Duration, stateVersion: Int, limit: Int) async throws -> [SessionID] {
    try await leases.deleteExpired(idleFor: idle, stateVersion: stateVersion, limit: limit)
  }

  public func move(_ id: SessionID, epoch: Int, to successor: String?) async throws {
    try await leases.move(id, epoch: epoch, to: successor)
    table.withLock { $0.release(id, epoch: epoch) }
  }

  public func didRelease(_ id: SessionID, epoch: Int) {
    table.withLock { $0.release(id, epoch: epoch) }
  }

  // MARK: Reads

  public func durableSnapshot(_ id: SessionID) async throws -> SessionSnapshot? {
    try await leases.durableSnapshot(id)
  }

  public func readInOrder(_ id: SessionID, _ body: @escaping @Sendable (Result<DurableVersion?, any Error>) -> Void) {
    listener.submit { connection in
      guard let connection else { return body(.failure(PostgresError.notConnected)) }
      body(Result { try ClusterNotifications.durableVersion(of: id, on: connection) })
    }
  }

  // MARK: The action log

  public func watchActions(of id: SessionID, _ watching: Bool) {
    notifications.watch(id, watching, processID: processID, on: listener)
  }

  public func isActionWatched(_ id: SessionID) -> Bool {
    notifications.isWatched(id)
  }

  public func announceAction(of id: SessionID, _ data: [UInt8]) {
    let payload = ActionLogNotification.action(id, data: data).payload
    listener.submit { connection in
      _ = try? connection?.execute("SELECT pg_notify('\(PostgresSchema.logChannel)', $1)", [payload])
    }
  }

  // MARK: Metrics

  public var metrics: [ClusterMetric] {
    [
      ClusterMetric(
        name: "storehost_cluster_sessions_owned", kind: .gauge, help: "Sessions this process owns.",
        value: table.withLock { $0.sessions.count }),
      ClusterMetric(
        name: "storehost_cluster_takeovers_total", kind: .counter,
        help: "Sessions this process took over (their owner was gone, or released them).",
        value: counters.takeovers.load(ordering: .relaxed)),
      ClusterMetric(
        name: "storehost_cluster_sessions_lost_total", kind: .counter,
        help: "Sessions this process found another process had taken over.",
        value: counters.sessionsLost.load(ordering: .relaxed)),
      ClusterMetric(
        name: "storehost_cluster_lease_gaps_total", kind: .counter,
        help: "Pauses or lost connections after which this process checked its sessions in the database.",
        value: table.withLock { $0.gaps }),
    ] + sharedValues.metrics
  }
}

/// The counters behind ``PostgresCluster/metrics``.
private final class ClusterCounters: Sendable {
  let takeovers = Atomic<Int>(0)
  let sessionsLost = Atomic<Int>(0)
}
