import Foundation

/// Sessions in a PostgreSQL database shared by several StoreHost processes
/// (`--database postgres://...`).
///
/// Saves are fenced by ownership: a process writes a session only while it is the session's
/// owner (see ``SessionLeases``), and only a newer version replaces an older one, so
/// a process that lost its lease can never overwrite the new owner's state. Each save
/// announces the new version on ``PostgresSchema/sessionChannel`` in the same transaction
/// (``SessionNotification``), so processes streaming the session learn of it in commit order.
///
/// Durability: `strict` saves return after a synchronous commit (the database's WAL is
/// flushed); saves waiting at the same time share one transaction (``PostgresSaveBatcher``),
/// so throughput grows with concurrent sessions instead of being one WAL flush per save;
/// `fast` connections use `synchronous_commit = off`, so a database crash may lose
/// the last fraction of a second but never leaves a torn state. The connection pool's
/// threads run the blocking libpq calls (``PostgresPool``).
public final class PostgresSessionPersistence: SessionPersistence {
  /// The promise ``save(_:)`` keeps.
  public let durability: Durability
  /// This process's id, written as the owner of the sessions it saves.
  public let processID: String
  let pool: PostgresPool
  let leaseDuration: Duration
  private let batcher: PostgresSaveBatcher

  /// Connects to `url`, creates or migrates the tables, and starts the pool's threads.
  ///
  /// - Parameters:
  ///   - processID: This process's id in `storehost_sessions.owner`.
  ///   - leaseDuration: How long this process's sessions stay its own after its last heartbeat.
  ///   - poolSize: Connections to the database; `nil` for ``PostgresPool``'s default of 4.
  /// - Throws: A ``PostgresError`` when the database is unreachable.
  public static func open(
    url: String,
    processID: String,
    durability: Durability = .fast,
    leaseDuration: Duration = SessionLeases.defaultLeaseDuration,
    poolSize: Int? = nil
  ) async throws -> PostgresSessionPersistence {
    let pool = PostgresPool(
      url: url, size: poolSize ?? PostgresPool.defaultSize, setup: durability == .fast ? "SET synchronous_commit = off" : nil)
    do {
      try await pool.run { try PostgresSchema.migrate($0) }
    } catch {
      pool.close()
      throw error
    }
    return PostgresSessionPersistence(
      durability: durability, processID: processID, pool: pool, leaseDuration: leaseDuration)
  }

  private init(durability: Durability, processID: String, pool: PostgresPool, leaseDuration: Duration) {
    self.durability = durability
    self.processID = processID
    self.pool = pool
    self.leaseDuration = leaseDuration
    self.batcher = PostgresSaveBatcher(pool: pool, processID: processID, maxTransactions: pool.size - 1)
  }

  public func loadAll() async throws -> [SessionSnapshot] {
    try await pool.run { connection in
      try connection.execute("SELECT id, version, state, created_at, last_active_at, answers FROM storehost_sessions")
        .map(SessionSnapshot.init(row:))
    }
  }

  /// Stores `snapshot` and announces it: version 0 creates the session, owned by this
  /// process; a later version replaces the stored one only while this process owns the
  /// session and the stored version is older.
  /// - Throws: ``SessionLeaseLost`` when another process owns the session, or it was deleted.
  public func save(_ save: SessionSave) async throws {
    let snapshot = try save.snapshot()
    let state = String(decoding: snapshot.state, as: UTF8.self)
    let payload = SessionNotification.payload(id: snapshot.id, version: snapshot.version, state: state)
    let lastActive = String(snapshot.lastActiveAt.timeIntervalSince1970)
    let answers = snapshot.answers.storedJSON.map { String(decoding: $0, as: UTF8.self) }
    if snapshot.version == 0 {
      try await batcher.save(
        snapshot.id, sql: Self.insert,
        parameters: [
          snapshot.id.rawValue, state, String(snapshot.createdAt.timeIntervalSince1970), lastActive, processID,
          payload, answers,
        ])
    } else {
      try await batcher.save(
        snapshot.id, sql: Self.update,
        parameters: [snapshot.id.rawValue, String(snapshot.version), state, lastActive, processID, payload, answers])
    }
  }

  /// Creates a session at version 0, owned by this process, and announces it at commit; saved
  /// again at version 0 (with new answers), it updates the row while this process owns it.
  /// Returns a row when it saved. Parameters: id, state, created_at, last_active_at, owner,
  /// notification payload, answers.
  static let insert = """
    WITH saved AS (
      INSERT INTO storehost_sessions (id, version, state, created_at, last_active_at, owner, answers)
      VALUES ($1, 0, $2, $3, $4, $5, $7)
      ON CONFLICT (id) DO UPDATE SET last_active_at = excluded.last_active_at, answers = excluded.answers
      WHERE storehost_sessions.owner = $5 AND storehost_sessions.version = 0
      RETURNING id)
    SELECT pg_notify('\(PostgresSchema.sessionChannel)', $6) FROM saved
    """

  /// Stores a newer version of a session this process owns (or the same version with newer
  /// answers), and announces it at commit. Returns a row when it saved: never for a session
  /// taken over by another process or deleted meanwhile, so a stalled former owner cannot
  /// overwrite or bring it back. Parameters: id, version, state, last_active_at, owner,
  /// notification payload, answers.
  static let update = """
    WITH saved AS (
      UPDATE storehost_sessions SET version = $2, state = $3, last_active_at = $4, answers = $7
      WHERE id = $1 AND owner = $5 AND version <= $2
      RETURNING id)
    SELECT pg_notify('\(PostgresSchema.sessionChannel)', $6) FROM saved
    """

  /// Deletes the session and announces it (version ``SessionNotification/deletedVersion``).
  public func delete(_ id: SessionID) async throws {
    let payload = "\(id) \(SessionNotification.deletedVersion)"
    try await pool.run { connection in
      try connection.execute(
        """
        WITH deleted AS (DELETE FROM storehost_sessions WHERE id = $1 RETURNING id)
        SELECT pg_notify('\(PostgresSchema.sessionChannel)', $2) FROM deleted
        """, [id.rawValue, payload])
    }
  }

  /// Every save and delete is committed before it returns, so there is nothing to wait for.
  public func flush() async throws {
    try await pool.run { _ in }
  }

  public func close() async throws {
    pool.close()
  }
}

extension SessionSnapshot {
  /// A row of `id, version, state, created_at, last_active_at, answers`.
  init(row: [String?]) throws {
    guard row.count == 6, let id = row[0].flatMap(SessionID.init), let version = row[1].flatMap({ Int($0) }),
      let state = row[2], let created = row[3].flatMap({ Double($0) }), let active = row[4].flatMap({ Double($0) })
    else { throw SessionPersistenceError.invalidRecord("unreadable row in storehost_sessions") }
    self.init(
      id: id, version: version, state: Data(state.utf8), createdAt: Date(timeIntervalSince1970: created),
      lastActiveAt: Date(timeIntervalSince1970: active), answers: [RememberedAnswer](storedJSON: Data((row[5] ?? "").utf8)))
  }
}

extension Duration {
  /// The duration as a PostgreSQL interval literal in milliseconds, e.g. `4000 milliseconds`.
  var postgresInterval: String {
    "\(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000) milliseconds"
  }
}
