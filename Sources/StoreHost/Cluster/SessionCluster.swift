import Foundation
import HTTP
import Synchronization

/// What lets several StoreHost processes share one PostgreSQL database without sticky
/// sessions: leases that give each session one owner, forwarding of requests to that owner,
/// and streams fed by the owner's announcements.
///
/// ```swift
/// let persistence = try await PostgresSessionPersistence.open(url: url, processID: id, durability: .strict)
/// let cluster = SessionCluster(persistence: persistence, eventHistoryLength: 32)
/// let host = SessionHost(persistence: persistence, cluster: cluster, ...)
/// try await host.joinCluster(advertising: "http://10.0.0.5:8080")
/// ```
///
/// Ownership is tracked here with the instant until which this process may trust its lease:
/// the start of the heartbeat (or takeover) that last renewed it plus the lease duration, less
/// a safety margin for a slow database round trip. A session is served locally only while
/// that holds; otherwise the request goes back through the database.
public final class SessionCluster: Sendable {
  /// How much sooner than the database this process considers its own lease over.
  static let leaseSafetyMargin: Duration = .milliseconds(750)

  let persistence: PostgresSessionPersistence
  let leases: SessionLeases
  let followers: SessionFollowers
  /// Values shared by every process, by key (what a PostgreSQL-backed `SharedKey` uses).
  public let sharedValues: ClusterSharedValues
  let listener: PostgresListener
  let liveness: ProcessLiveness
  let forwarder: RequestForwarder
  private struct Ownership {
    /// The sessions this process owns, each with when it took them.
    var sessions: [SessionID: ContinuousClock.Instant] = [:]
    /// Until when this process's lease is known to hold.
    var validUntil = ContinuousClock.now
  }

  private let ownership = Mutex(Ownership())
  /// Per session, the process whose forwarded requests came last, and how many in a row.
  private let forwardStreaks = Mutex<[SessionID: (process: String, count: Int)]>([:])
  /// Forwarded requests in a row from one process after which a session is handed to it.
  static let handoverStreak = 3

  /// Starts listening for the announcements of every process on `persistence`'s database.
  public init(persistence: PostgresSessionPersistence, eventHistoryLength: Int) {
    self.persistence = persistence
    self.leases = SessionLeases(persistence: persistence)
    let followers = SessionFollowers(historyLength: eventHistoryLength)
    self.followers = followers
    let sharedValues = ClusterSharedValues(pool: persistence.pool, processID: persistence.processID)
    self.sharedValues = sharedValues
    let liveness = ProcessLiveness(processID: persistence.processID)
    self.liveness = liveness
    self.listener = PostgresListener(
      url: persistence.pool.url, channels: ClusterNotifications.channels,
      handler: ClusterNotifications(followers: followers, sharedValues: sharedValues, liveness: liveness))
    self.forwarder = RequestForwarder(processID: persistence.processID)
    // Without the lock, other processes may take this one's sessions at any moment: stop
    // trusting the lease until a database call renews it.
    liveness.whenLost { [weak self] in self?.ownership.withLock { $0.validUntil = .now } }
  }

  /// A fresh id for this process: its pid (for people reading the tables) and 64 random bits
  /// (so a restarted process never inherits a dead one's leases).
  public static func newProcessID() -> String {
    "\(getpid())-\(Base64URL.encode(SecureRandom.bytes(8)))"
  }

  /// This process's id in the database.
  public var processID: String { persistence.processID }

  /// How long a takeover may wait for a dead owner's lease to run out.
  var takeoverWait: Duration { leases.leaseDuration + .seconds(2) }

  /// Takes this process's liveness lock, registers its address, starts its lease and loads
  /// the shared values.
  func join(advertising address: String) async throws {
    await liveness.waitUntilHeld()
    let start = ContinuousClock.now
    try await leases.register(address: address)
    extendLease(renewedAt: start)
    try await sharedValues.loadAll()
  }

  /// Whether this process may serve `id` locally right now.
  func holdsLease(_ id: SessionID) -> Bool {
    ownership.withLock { $0.sessions[id] != nil && ContinuousClock.now < $0.validUntil }
  }

  /// Records a session taken or created by a database call that started at `start` (a
  /// takeover also renews this process's heartbeat).
  func didAcquire(_ id: SessionID, at start: ContinuousClock.Instant) {
    ownership.withLock { $0.sessions[id] = start }
    extendLease(renewedAt: start)
  }

  /// Forgets a session this process gave up or lost.
  func didRelease(_ id: SessionID) {
    ownership.withLock { _ = $0.sessions.removeValue(forKey: id) }
    forwardStreaks.withLock { _ = $0.removeValue(forKey: id) }
  }

  /// Records that this process served a request for `id`, forwarded by `process` (`nil`:
  /// it came straight here). Returns that process when the last ``handoverStreak`` requests
  /// all came from it: a load balancer routes the session there, so it should own it.
  func noteServed(_ id: SessionID, forwardedBy process: String?) -> String? {
    forwardStreaks.withLock { streaks in
      guard let process else {
        streaks[id] = nil
        return nil
      }
      let count = streaks[id]?.process == process ? streaks[id]!.count + 1 : 1
      guard count < Self.handoverStreak else {
        streaks[id] = nil
        return process
      }
      streaks[id] = (process, count)
      return nil
    }
  }

  /// Renews this process's lease once.
  /// - Returns: The sessions this process lost: taken over by another process though held
  ///   before the renewal started, or all of them once renewals failed for a lease's length.
  func renewLeases() async -> [SessionID] {
    let start = ContinuousClock.now
    let renewed = try? await leases.renew()
    if renewed != nil { extendLease(renewedAt: start) }
    return ownership.withLock { ownership in
      let lost: [SessionID]
      if let renewed {
        lost = ownership.sessions.filter { !renewed.contains($0.key) && $0.value < start }.map(\.key)
      } else {
        lost = ContinuousClock.now < ownership.validUntil ? [] : Array(ownership.sessions.keys)
      }
      for id in lost { ownership.sessions[id] = nil }
      return lost
    }
  }

  private func extendLease(renewedAt start: ContinuousClock.Instant) {
    // Without the liveness lock, other processes may take any session at once.
    guard liveness.isHeld else { return }
    let validUntil = start + leases.leaseDuration - Self.leaseSafetyMargin
    ownership.withLock { $0.validUntil = max($0.validUntil, validUntil) }
  }

  /// Gives up every session, forgets this process's address, and stops listening and forwarding.
  func leave() async {
    try? await leases.releaseAll()
    ownership.withLock { $0.sessions = [:] }
    listener.stop()
    forwarder.stop()
  }
}
