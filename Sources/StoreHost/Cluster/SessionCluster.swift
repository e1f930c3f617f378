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
/// Ownership is tracked here per session with the instant until which this process may trust
/// its lease: the start of the renewal (or takeover) that extended it plus the lease duration,
/// less a safety margin for a slow database round trip. A session whose lease is not known to
/// be valid is never served locally; the request goes back through the database instead.
public final class SessionCluster: Sendable {
  /// How much sooner than the database this process considers its own lease over.
  static let leaseSafetyMargin: Duration = .milliseconds(750)

  let persistence: PostgresSessionPersistence
  let leases: SessionLeases
  let followers: SessionFollowers
  /// Values shared by every process, by key (what a PostgreSQL-backed `SharedKey` uses).
  public let sharedValues: ClusterSharedValues
  let listener: PostgresListener
  let forwarder: RequestForwarder
  /// Until when each locally owned session's lease is known to hold, and since when it is held.
  private let owned = Mutex<[SessionID: (since: ContinuousClock.Instant, validUntil: ContinuousClock.Instant)]>([:])

  /// Starts listening for the announcements of every process on `persistence`'s database.
  public init(persistence: PostgresSessionPersistence, eventHistoryLength: Int) {
    self.persistence = persistence
    self.leases = SessionLeases(persistence: persistence)
    let followers = SessionFollowers(historyLength: eventHistoryLength)
    self.followers = followers
    let sharedValues = ClusterSharedValues(pool: persistence.pool, processID: persistence.processID)
    self.sharedValues = sharedValues
    self.listener = PostgresListener(
      url: persistence.pool.url, channels: ClusterNotifications.channels,
      handler: ClusterNotifications(followers: followers, sharedValues: sharedValues))
    self.forwarder = RequestForwarder(processID: persistence.processID)
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

  /// Whether this process may serve `id` locally right now.
  func holdsLease(_ id: SessionID) -> Bool {
    owned.withLock { $0[id].map { ContinuousClock.now < $0.validUntil } ?? false }
  }

  /// Records a lease taken or created by a database call that started at `start`.
  func didAcquire(_ id: SessionID, at start: ContinuousClock.Instant) {
    let validUntil = start + leases.leaseDuration - Self.leaseSafetyMargin
    owned.withLock { $0[id] = (start, validUntil) }
  }

  /// Forgets a lease this process gave up or lost.
  func didRelease(_ id: SessionID) {
    owned.withLock { _ = $0.removeValue(forKey: id) }
  }

  /// Renews every lease once.
  /// - Returns: The sessions this process lost: not renewed though held before the renewal
  ///   started, or no longer known valid because renewals keep failing.
  func renewLeases() async -> [SessionID] {
    let start = ContinuousClock.now
    let renewed = try? await leases.renew()
    let validUntil = start + leases.leaseDuration - Self.leaseSafetyMargin
    return owned.withLock { owned in
      var lost: [SessionID] = []
      for (id, lease) in owned {
        if let renewed, renewed.contains(id) {
          owned[id]!.validUntil = max(lease.validUntil, validUntil)
        } else if (renewed != nil && lease.since < start) || lease.validUntil <= .now {
          lost.append(id)
        }
      }
      for id in lost { owned[id] = nil }
      return lost
    }
  }

  /// Gives up every lease, forgets this process's address and stops listening.
  func leave() async {
    try? await leases.releaseAll()
    owned.withLock { $0 = [:] }
    listener.stop()
  }
}
