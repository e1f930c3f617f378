import Foundation

/// Which process owns each session, kept in `storehost_sessions.owner` / `lease_until`.
///
/// One process at a time owns a session: it alone reduces the session's actions and runs its
/// effects. It keeps its sessions by renewing all their leases at once every
/// ``renewalInterval``; a lease that was not renewed for ``defaultLeaseDuration`` (the owner
/// died, hung, or lost the database) lets any other process take the session over from its
/// last durable state. A process that drains releases its leases, so others take over at once.
/// Lease times are the database's clock, so process clocks need not agree.
public final class SessionLeases: Sendable {
  /// How long a lease lasts after its last renewal, by default: 4 s. Takeover after a crash
  /// waits this long; shorter leases make a hiccup of the owner more likely to cost it its
  /// sessions.
  public static let defaultLeaseDuration: Duration = .seconds(4)
  /// How often an owner renews its leases: 1 s, so three renewals in a row may fail before
  /// a lease runs out.
  public static let renewalInterval: Duration = .seconds(1)

  /// Where a session is, as far as the database knows.
  enum Acquisition: Sendable {
    /// This process owns it now, at this durable state.
    case acquired(SessionSnapshot)
    /// Another live process owns it; `address` is where it serves (`nil` if it never said).
    case ownedElsewhere(address: String?)
    /// No such session.
    case notFound
  }

  let pool: PostgresPool
  let processID: String
  let leaseDuration: Duration

  init(persistence: PostgresSessionPersistence) {
    self.pool = persistence.pool
    self.processID = persistence.processID
    self.leaseDuration = persistence.leaseDuration
  }

  /// Records (or updates) this process's address for forwarded requests.
  func register(address: String) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        """
        INSERT INTO storehost_processes (id, address, heartbeat_at) VALUES ($1, $2, now())
        ON CONFLICT (id) DO UPDATE SET address = excluded.address, heartbeat_at = now()
        """, [processID, address])
    }
  }

  /// Takes the session if nobody holds a live lease on it (or this process does already).
  func acquire(_ id: SessionID) async throws -> Acquisition {
    try await pool.run { [processID, leaseDuration] connection in
      let taken = try connection.execute(
        """
        UPDATE storehost_sessions SET owner = $2, lease_until = now() + $3::interval
        WHERE id = $1 AND (owner IS NULL OR owner = $2 OR lease_until < now())
        RETURNING id, version, state, created_at, last_active_at
        """, [id.rawValue, processID, leaseDuration.postgresInterval])
      if let row = taken.first { return .acquired(try SessionSnapshot(row: row)) }
      let owner = try connection.execute(
        """
        SELECT p.address FROM storehost_sessions s LEFT JOIN storehost_processes p ON p.id = s.owner
        WHERE s.id = $1
        """, [id.rawValue])
      guard let row = owner.first else { return .notFound }
      return .ownedElsewhere(address: row.first ?? nil)
    }
  }

  /// The session's latest durable state, whoever owns it; `nil` when there is no such session.
  func durableSnapshot(_ id: SessionID) async throws -> SessionSnapshot? {
    try await pool.run { connection in
      try connection.execute(
        "SELECT id, version, state, created_at, last_active_at FROM storehost_sessions WHERE id = $1",
        [id.rawValue]
      ).first.map(SessionSnapshot.init(row:))
    }
  }

  /// Extends every lease this process holds and its heartbeat.
  /// - Returns: The sessions this process still owns.
  func renew() async throws -> Set<SessionID> {
    try await pool.run { [processID, leaseDuration] connection in
      let rows = try connection.execute(
        """
        WITH beat AS (UPDATE storehost_processes SET heartbeat_at = now() WHERE id = $1)
        UPDATE storehost_sessions SET lease_until = now() + $2::interval WHERE owner = $1 RETURNING id
        """, [processID, leaseDuration.postgresInterval])
      return Set(rows.compactMap { $0.first.flatMap { $0 }.flatMap(SessionID.init) })
    }
  }

  /// Gives up one session (it stays stored; any process may take it at once).
  func release(_ id: SessionID) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = NULL, lease_until = NULL WHERE id = $1 AND owner = $2",
        [id.rawValue, processID])
    }
  }

  /// Gives up every session and forgets this process's address: the process is draining.
  func releaseAll() async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = NULL, lease_until = NULL WHERE owner = $1", [processID])
      try connection.execute("DELETE FROM storehost_processes WHERE id = $1", [processID])
    }
  }
}
