import Foundation
import HTTP
import StoreHost

/// Which process owns each session, in the database: `storehost_sessions.owner` and `epoch`,
/// valid while the owner's heartbeat in `storehost_processes` is fresh and it holds its
/// liveness lock (``ProcessLiveness``).
///
/// One process at a time owns a session: it alone reduces the session's actions and runs its
/// effects. The lease is the process's: it keeps all its sessions by renewing one heartbeat
/// row every ``renewalInterval``. A heartbeat older than the lease (the owner died, hung, or
/// lost the database) lets any other process take over any of its sessions from their last
/// durable state, and so does a free liveness lock: a killed process's sessions are taken
/// over as soon as the database noticed its connection closed. Every takeover, handover and
/// release moves the session's epoch on, and every save is fenced by owner and epoch, so
/// nothing a former owner still had queued is ever written.
///
/// Heartbeats are ordered with takeovers by row locks: a takeover reads the owner's
/// heartbeat row `FOR SHARE SKIP LOCKED`, so it either waits out a renewal in progress
/// (and sees it), or holds the row while it takes the session, and the renewal waits for it
/// and then sees the takeover. Each heartbeat statement returns its stored time and the
/// database's clock after it held the row, which ``LeaseTable`` uses to find gaps (pauses)
/// in this process's renewals. Heartbeat times are the database's clock, so process clocks
/// need not agree.
final class SessionLeases: Sendable {
  /// How long a process's sessions stay its own after its last heartbeat, by default: 1.5 s.
  /// A hung or dead owner's sessions wait this long before they are taken over; a shorter
  /// lease makes a hiccup of the owner more likely to cost it its sessions.
  static let defaultLeaseDuration: Duration = .milliseconds(1500)
  /// How often a process renews its heartbeat, by default: 0.5 s, so two renewals in a row
  /// may be slow before its sessions need a check in the database.
  static let renewalInterval: Duration = .milliseconds(500)

  let pool: PostgresPool
  let processID: String
  let leaseDuration: Duration

  init(pool: PostgresPool, processID: String, leaseDuration: Duration) {
    self.pool = pool
    self.processID = processID
    self.leaseDuration = leaseDuration
  }

  /// What a heartbeat statement returns: the stored heartbeat and the clock after it, in
  /// seconds of the database's clock.
  struct Beat {
    var stored: Double
    var after: Double
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
  /// the lease (`lease`), read under a share lock that a renewal in progress makes it skip;
  /// or it held its liveness lock and that lock is free now; or it has no row at all.
  private static func ownerIsGone(_ owner: String, lease: String) -> String {
    """
    (NOT EXISTS (SELECT 1 FROM storehost_processes p WHERE p.id = \(owner))
     OR EXISTS (SELECT 1 FROM storehost_processes p WHERE p.id = \(owner) AND p.heartbeat_at <= now() - \(lease)::interval
       FOR SHARE SKIP LOCKED)
     OR EXISTS (SELECT 1 FROM storehost_processes p WHERE p.id = \(owner) AND p.holds_lock
       AND pg_try_advisory_xact_lock(\(PostgresSchema.livenessLockSpace), hashtext(p.id))))
    """
  }

  /// What a takeover of the session `s` sets: `owner`, the next epoch, and the version the
  /// session goes on from (``SessionSnapshot/resumedVersion``: past any version its last
  /// owner may have shown and lost) with `window` versions reserved after it.
  private static func takeover(owner: String, window: String) -> String {
    let resumed = "(CASE WHEN s.reserved_version > s.version THEN s.reserved_version + 1 ELSE s.version END)"
    return "owner = \(owner), epoch = s.epoch + 1, version = \(resumed), reserved_version = \(resumed) + \(window)"
  }

  /// The heartbeat of `processID`, as a data-modifying `WITH` query named `beat`.
  private static let beat = """
    beat AS (UPDATE storehost_processes SET heartbeat_at = now() WHERE id = $2
      RETURNING extract(epoch FROM heartbeat_at)::float8 AS stored, extract(epoch FROM clock_timestamp())::float8 AS after)
    """

  /// Takes the session if its owner is gone (or it has none, or it is this process) and
  /// this build can read it (saved under a state version up to `stateVersion`), renewing
  /// this process's heartbeat in the same statement. The takeover moves the epoch on,
  /// relabels the stored state and reserves `reservationWindow` versions for the new owner
  /// to publish.
  func acquire(_ id: SessionID, stateVersion: Int, reservationWindow: Int) async throws -> (ClusterAcquisition, Beat?) {
    try await pool.run { [processID, leaseDuration] connection in
      let taken = try connection.execute(
        """
        WITH \(Self.beat), taken AS (
          UPDATE storehost_sessions s SET \(Self.takeover(owner: "$2", window: "$5"))
          WHERE id = $1 AND s.state_version <= $4
            AND (owner IS NULL OR owner = $2 OR \(Self.ownerIsGone("s.owner", lease: "$3")))
          RETURNING \(SessionSnapshot.columns))
        SELECT beat.stored, beat.after, taken.* FROM (SELECT 1) AS one LEFT JOIN beat ON true LEFT JOIN taken ON true
        """, [id.rawValue, processID, leaseDuration.postgresInterval, String(stateVersion), String(reservationWindow)])
      let beat = taken.first.flatMap(Self.beat(of:))
      if let row = taken.first, row[2] != nil {
        var snapshot = try SessionSnapshot(row: Array(row.dropFirst(2)))
        snapshot.answers = try PostgresSessionPersistence.answers(on: connection, of: [id])[id] ?? []
        return (.acquired(snapshot), beat)
      }
      let owner = try connection.execute(
        """
        SELECT s.owner, p.address, s.state_version > $2 AND (s.owner IS NULL OR \(Self.ownerIsGone("s.owner", lease: "$3")))
        FROM storehost_sessions s LEFT JOIN storehost_processes p ON p.id = s.owner
        WHERE s.id = $1
        """, [id.rawValue, String(stateVersion), leaseDuration.postgresInterval])
      guard let row = owner.first else { return (.notFound, beat) }
      if row[2] == "t" { return (.savedByNewerBuild, beat) }
      return (.ownedElsewhere(owner: row[0] ?? "", address: row[1] ?? nil), beat)
    }
  }

  /// Renews this process's heartbeat, then reads whether it owns `id` at `epoch`. The
  /// check comes after the heartbeat, in a statement of its own, so it sees every takeover
  /// that the stale heartbeat allowed.
  func verify(_ id: SessionID, epoch: Int) async throws -> (owned: Bool, beat: Beat) {
    try await pool.run { [processID] connection in
      let me = try connection.literal(processID)
      let rows = try connection.execute(
        """
        UPDATE storehost_processes SET heartbeat_at = now() WHERE id = \(me);
        SELECT extract(epoch FROM p.heartbeat_at)::float8, extract(epoch FROM clock_timestamp())::float8,
          s.owner = p.id AND s.epoch = \(epoch)
        FROM storehost_processes p LEFT JOIN storehost_sessions s ON s.id = \(try connection.literal(id.rawValue))
        WHERE p.id = \(me)
        """)
      guard let row = rows.first, let beat = Self.beat(of: row) else {
        throw SessionPersistenceError.invalidRecord("this process has no row in storehost_processes")
      }
      return (row[2] == "t", beat)
    }
  }

  /// Renews this process's heartbeat on `connection` (the listener's, which holds the
  /// liveness lock), and, with `readOwned`, reads every session it owns with its epoch.
  static func renew(
    _ processID: String, on connection: PostgresConnection, readOwned: Bool
  ) throws -> (beat: Beat, owned: [SessionID: Int]?) {
    let me = try connection.literal(processID)
    let owned = readOwned ? "SELECT id, epoch FROM storehost_sessions WHERE owner = \(me);" : ""
    let rows = try connection.execute(
      """
      BEGIN;
      UPDATE storehost_processes SET heartbeat_at = now() WHERE id = \(me);
      SELECT extract(epoch FROM heartbeat_at)::float8, extract(epoch FROM clock_timestamp())::float8
      FROM storehost_processes WHERE id = \(me);
      """)
    defer { _ = try? connection.execute("COMMIT") }
    guard let row = rows.first, let beat = Self.beat(of: row) else {
      throw SessionPersistenceError.invalidRecord("this process has no row in storehost_processes")
    }
    guard readOwned else { return (beat, nil) }
    var sessions: [SessionID: Int] = [:]
    for row in try connection.execute(owned) {
      guard let id = row[0].flatMap({ $0 }).flatMap(SessionID.init), let epoch = row[1].flatMap({ Int($0) }) else {
        continue
      }
      sessions[id] = epoch
    }
    return (beat, sessions)
  }

  private static func beat(of row: [String?]) -> Beat? {
    guard row.count >= 2, let stored = row[0].flatMap({ Double($0) }), let after = row[1].flatMap({ Double($0) }) else {
      return nil
    }
    return Beat(stored: stored, after: after)
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

  /// Takes up to `limit` sessions that nobody serves: released by a draining process, or
  /// owned by one that is gone; only those active within `recently`, which their users may
  /// still be watching, and saved under a state version up to `stateVersion`. Their effects
  /// stopped with their owner: adopting them resumes them. Each takeover moves the epoch on,
  /// relabels and reserves as ``acquire(_:stateVersion:reservationWindow:)`` does. Also
  /// forgets processes dead for longer than ``deadProcessRetention``.
  /// - Returns: Their durable states.
  func adoptOrphans(limit: Int, activeWithin recently: Duration, stateVersion: Int, reservationWindow: Int)
    async throws -> [SessionSnapshot]
  {
    try await pool.run { [processID, leaseDuration] connection in
      try connection.execute(
        "DELETE FROM storehost_processes WHERE heartbeat_at < now() - interval '\(Self.deadProcessRetention)'")
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

  /// Deletes up to `limit` sessions last active more than `idle` ago that no live process
  /// owns and that were saved at `stateVersion` or earlier, with their remembered answers,
  /// in one statement: each is deleted by exactly one process, whichever runs it first.
  /// - Returns: The ids deleted.
  func deleteExpired(idleFor idle: Duration, stateVersion: Int, limit: Int) async throws -> [SessionID] {
    try await pool.run { [processID, leaseDuration] connection in
      try connection.execute(
        """
        WITH gone AS (
          DELETE FROM storehost_sessions WHERE id IN (
            SELECT id FROM storehost_sessions s
            WHERE last_active_at < extract(epoch FROM now()) - $2 AND state_version <= $3
            AND (owner IS NULL OR (owner <> $1 AND \(Self.ownerIsGone("s.owner", lease: "$5"))))
            ORDER BY last_active_at LIMIT $4 FOR UPDATE SKIP LOCKED)
          RETURNING id),
        answers AS (DELETE FROM storehost_answers WHERE session_id IN (SELECT id FROM gone))
        SELECT id FROM gone
        """,
        [processID, String(idle.secondsValue), String(stateVersion), String(limit), leaseDuration.postgresInterval]
      ).compactMap { $0.first.flatMap { $0 }.flatMap(SessionID.init) }
    }
  }

  /// Gives one session, owned here at `epoch`, to the process `successor` (`nil`: to
  /// whichever process asks first), moving its epoch on.
  func move(_ id: SessionID, epoch: Int, to successor: String?) async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = $3, epoch = epoch + 1 WHERE id = $1 AND owner = $2 AND epoch = $4",
        [id.rawValue, processID, successor, String(epoch)])
    }
  }

  /// Gives up every session and forgets this process's address: the process is draining.
  func releaseAll() async throws {
    try await pool.run { [processID] connection in
      try connection.execute(
        "UPDATE storehost_sessions SET owner = NULL, epoch = epoch + 1 WHERE owner = $1", [processID])
      try connection.execute("DELETE FROM storehost_processes WHERE id = $1", [processID])
    }
  }
}
