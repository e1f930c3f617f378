import Foundation

/// Which process owns each session: `storehost_sessions.owner`, valid while that process's
/// heartbeat in `storehost_processes` is fresh and it holds its liveness lock
/// (``ProcessLiveness``).
///
/// One process at a time owns a session: it alone reduces the session's actions and runs its
/// effects. The lease is the process's, not each session's: a process keeps all its sessions
/// by renewing one heartbeat row every ``renewalInterval``. A heartbeat older than
/// ``defaultLeaseDuration`` (the owner died, hung, or lost the database) lets any other
/// process take over any of its sessions from their last durable state, and so does a free
/// liveness lock: a killed process's sessions are taken over as soon as the database noticed
/// its connection closed. A process that drains gives its sessions up, so others take over
/// at once. Heartbeat times are the database's
/// clock, so process clocks need not agree.
///
/// Renewing a heartbeat touches one row whatever the number of sessions, and takes no lock a
/// session's save also takes, so renewals never wait for (or deadlock with) saves.
public final class SessionLeases: Sendable {
  /// How long a process's sessions stay its own after its last heartbeat, by default: 4 s.
  /// Takeover after a crash waits this long; shorter leases make a hiccup of the owner more
  /// likely to cost it its sessions.
  public static let defaultLeaseDuration: Duration = .seconds(4)
  /// How often a process renews its heartbeat: 1 s, so three renewals in a row may fail
  /// before its lease runs out.
  public static let renewalInterval: Duration = .seconds(1)

  /// Where a session is, as far as the database knows.
  enum Acquisition: Sendable {
    /// This process owns it now, at this durable state.
    case acquired(SessionSnapshot)
    /// Another live process owns it; `address` is where it serves (`nil` if it never said).
    case ownedElsewhere(address: String?)
    /// A newer build saved it, under a state version this build cannot read, and no live
    /// process serves it.
    case savedByNewerBuild
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

  /// Records (or updates) this process's address for forwarded requests, and its heartbeat.
  func register(address: String) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        """
        INSERT INTO storehost_processes (id, address, heartbeat_at, holds_lock) VALUES ($1, $2, now(), true)
        ON CONFLICT (id) DO UPDATE SET address = excluded.address, heartbeat_at = now(), holds_lock = true
        """, [processID, address])
    }
  }

  /// Whether the process `owner` (a column of the query) is gone: its heartbeat aged past
  /// the lease (`$LEASE`), or it held its liveness lock and that lock is free now.
  private static func ownerIsGone(_ owner: String, lease: String) -> String {
    """
    NOT EXISTS (
      SELECT 1 FROM storehost_processes p WHERE p.id = \(owner) AND p.heartbeat_at > now() - \(lease)::interval
      AND NOT (p.holds_lock AND pg_try_advisory_xact_lock(\(PostgresSchema.livenessLockSpace), hashtext(p.id))))
    """
  }

  /// What a takeover of the session `s` sets: `owner`, and the version the session goes on from
  /// (``SessionSnapshot/resumedVersion``: past any version its last owner may have shown
  /// and lost) with `$window` versions reserved after it.
  private static func takeover(owner: String, window: String) -> String {
    let resumed = "(CASE WHEN s.reserved_version > s.version THEN s.reserved_version + 1 ELSE s.version END)"
    return "owner = \(owner), version = \(resumed), reserved_version = \(resumed) + \(window)"
  }

  /// Takes the session if its owner's lease ran out (or it has none, or it is this process)
  /// and this build can read it (saved under a state version up to `stateVersion`),
  /// renewing this process's heartbeat on the way. The takeover relabels the stored state
  /// and reserves `reservationWindow` versions for the new owner to publish, in the same
  /// statement (see ``SessionSnapshot/resumedVersion``).
  func acquire(_ id: SessionID, stateVersion: Int, reservationWindow: Int) async throws -> Acquisition {
    try await pool.run { [processID, leaseDuration] connection in
      let taken = try connection.execute(
        """
        WITH beat AS (UPDATE storehost_processes SET heartbeat_at = now() WHERE id = $2)
        UPDATE storehost_sessions s SET \(Self.takeover(owner: "$2", window: "$5"))
        WHERE id = $1 AND s.state_version <= $4
          AND (owner IS NULL OR owner = $2 OR \(Self.ownerIsGone("s.owner", lease: "$3")))
        RETURNING \(SessionSnapshot.columns)
        """, [id.rawValue, processID, leaseDuration.postgresInterval, String(stateVersion), String(reservationWindow)])
      if let row = taken.first {
        var snapshot = try SessionSnapshot(row: row)
        snapshot.answers = try PostgresSessionPersistence.answers(on: connection, of: [id])[id] ?? []
        return .acquired(snapshot)
      }
      let owner = try connection.execute(
        """
        SELECT p.address, s.state_version > $2 AND (s.owner IS NULL OR \(Self.ownerIsGone("s.owner", lease: "$3")))
        FROM storehost_sessions s LEFT JOIN storehost_processes p ON p.id = s.owner
        WHERE s.id = $1
        """, [id.rawValue, String(stateVersion), leaseDuration.postgresInterval])
      guard let row = owner.first else { return .notFound }
      if row.count > 1, row[1] == "t" { return .savedByNewerBuild }
      return .ownedElsewhere(address: row.first ?? nil)
    }
  }

  /// The session's latest durable state, whoever owns it; `nil` when there is no such session.
  func durableSnapshot(_ id: SessionID) async throws -> SessionSnapshot? {
    try await pool.run { connection in
      try connection.execute(
        "SELECT \(SessionSnapshot.columns) FROM storehost_sessions WHERE id = $1", [id.rawValue]
      ).first.map(SessionSnapshot.init(row:))
    }
  }

  /// How long the row of a process that died without draining is kept. Its sessions are
  /// takeable once its lease ran out either way; this only bounds the table.
  static let deadProcessRetention = "1 hour"

  /// Renews this process's heartbeat, and forgets processes dead for longer than
  /// ``deadProcessRetention``.
  /// - Returns: The sessions this process still owns.
  func renew() async throws -> Set<SessionID> {
    try await pool.run { [processID] connection in
      try connection.execute("UPDATE storehost_processes SET heartbeat_at = now() WHERE id = $1", [processID])
      try connection.execute(
        "DELETE FROM storehost_processes WHERE heartbeat_at < now() - interval '\(Self.deadProcessRetention)'")
      let rows = try connection.execute("SELECT id FROM storehost_sessions WHERE owner = $1", [processID])
      return Set(rows.compactMap { $0.first.flatMap { $0 }.flatMap(SessionID.init) })
    }
  }

  /// Takes up to `limit` sessions that nobody serves: released by a draining process, or
  /// owned by one that is gone; only those active within `recently`, which their users may
  /// still be watching, and saved under a state version up to `stateVersion`. Their effects
  /// stopped with their owner: adopting them resumes them. Each takeover relabels and
  /// reserves as ``acquire(_:stateVersion:reservationWindow:)`` does.
  /// - Returns: Their durable states.
  func adoptOrphans(limit: Int, activeWithin recently: Duration, stateVersion: Int, reservationWindow: Int)
    async throws -> [SessionSnapshot]
  {
    try await pool.run { [processID, leaseDuration] connection in
      var snapshots = try connection.execute(
        """
        UPDATE storehost_sessions s SET \(Self.takeover(owner: "$1", window: "$6")) WHERE id IN (
          SELECT id FROM storehost_sessions s
          WHERE (owner IS NULL OR (owner <> $1 AND \(Self.ownerIsGone("s.owner", lease: "$2"))))
          AND last_active_at > extract(epoch FROM now()) - $3 AND state_version <= $5
          LIMIT $4 FOR UPDATE SKIP LOCKED)
        RETURNING \(SessionSnapshot.columns)
        """,
        [
          processID, leaseDuration.postgresInterval, String(recently.secondsValue), String(limit), String(stateVersion),
          String(reservationWindow),
        ]
      ).map(SessionSnapshot.init(row:))
      let answers = try PostgresSessionPersistence.answers(on: connection, of: snapshots.map(\.id))
      for index in snapshots.indices { snapshots[index].answers = answers[snapshots[index].id] ?? [] }
      return snapshots
    }
  }

  /// Gives one session to the process `successor`, which takes it up on its next request.
  func handOver(_ id: SessionID, to successor: String) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = $3 WHERE id = $1 AND owner = $2", [id.rawValue, processID, successor])
    }
  }

  /// Gives up one session (it stays stored; any process may take it at once).
  func release(_ id: SessionID) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = NULL WHERE id = $1 AND owner = $2", [id.rawValue, processID])
    }
  }

  /// Gives up every session and forgets this process's address: the process is draining.
  func releaseAll() async throws {
    try await pool.run { [processID] connection in
      try connection.execute("UPDATE storehost_sessions SET owner = NULL WHERE owner = $1", [processID])
      try connection.execute("DELETE FROM storehost_processes WHERE id = $1", [processID])
    }
  }
}
