import StoreHost

/// The tables StoreHost keeps in PostgreSQL, created and migrated when a process starts.
///
/// `storehost_schema_version` holds one row with the version of the tables; each migration
/// moves it up by one inside the same transaction. Processes that start together take a
/// transaction-scoped advisory lock first, so exactly one of them migrates.
///
/// - `storehost_sessions`: one row per session: its latest durable `version` and `state`
///   (compact JSON), times as Unix seconds, and its `owner` (a process id; see ``SessionLeases``).
/// - `storehost_processes`: each live process's id, the address other processes forward
///   actions to, and its last heartbeat (the database's clock), which is its lease.
/// - `storehost_shared` (since version 2): values shared by every process, by key, each with
///   a version that grows with every change.
/// - Since version 3: `storehost_processes.holds_lock`, set by a process that holds its
///   liveness lock (see ``ProcessLiveness``).
/// - Since version 4: `storehost_sessions.state_version` and `reserved_version` (see
///   ``SessionSnapshot``), and `storehost_answers`, the remembered answers of
///   `Idempotency-Key` requests, one row per session and key, written in the same statement
///   as the state they report. (Version 3 kept them as JSON in `storehost_sessions.answers`,
///   which version 4 copies over and no longer writes.)
/// - Since version 5: `storehost_sessions.epoch`, the session's ownership epoch, moved on by
///   every takeover, handover and release; saves are fenced by owner and epoch.
/// - Since version 6: an index on `storehost_sessions.last_active_at`, so the scans for
///   orphans (recently active) and for expired sessions (long idle) read only those rows;
///   and `storehost_shared.write_id`, the id of the write that stored each value, so a
///   change written again after its answer was lost knows it committed.
enum PostgresSchema {
  /// The newest schema this StoreHost knows.
  static let currentVersion = 6

  /// The first key of every process's liveness lock; the second is `hashtext` of its id.
  static let livenessLockSpace = 7352002

  /// The channel on which owners announce each durable save (see ``SessionNotification``).
  static let sessionChannel = "storehost_session"

  /// The channel on which processes announce changed shared values (see ``ClusterSharedValues``).
  static let sharedChannel = "storehost_shared"

  /// The channel of `?log=1` across processes: which sessions' actions are watched, and
  /// those actions (see ``ActionLogNotification``).
  static let logChannel = "storehost_log"

  /// Migrations in order: `migrations[n]` takes the schema from version `n` to `n + 1`.
  private static let migrations = [
    """
    CREATE TABLE storehost_sessions (
      id text PRIMARY KEY,
      version bigint NOT NULL,
      state text NOT NULL,
      created_at double precision NOT NULL,
      last_active_at double precision NOT NULL,
      owner text
    );
    CREATE INDEX storehost_sessions_owner ON storehost_sessions (owner);
    CREATE TABLE storehost_processes (
      id text PRIMARY KEY,
      address text NOT NULL,
      heartbeat_at timestamptz NOT NULL
    );
    """,
    """
    CREATE TABLE storehost_shared (
      key text PRIMARY KEY,
      value text NOT NULL,
      version bigint NOT NULL
    );
    """,
    """
    ALTER TABLE storehost_sessions ADD COLUMN answers text;
    ALTER TABLE storehost_processes ADD COLUMN holds_lock boolean NOT NULL DEFAULT false;
    """,
    """
    ALTER TABLE storehost_sessions ADD COLUMN state_version integer NOT NULL DEFAULT 0;
    ALTER TABLE storehost_sessions ADD COLUMN reserved_version bigint NOT NULL DEFAULT 0;
    UPDATE storehost_sessions SET reserved_version = version;
    CREATE TABLE storehost_answers (
      session_id text NOT NULL,
      key text NOT NULL,
      body_digest text NOT NULL,
      status integer NOT NULL,
      body text NOT NULL,
      version bigint NOT NULL,
      answered_at double precision NOT NULL,
      PRIMARY KEY (session_id, key)
    );
    CREATE INDEX storehost_answers_answered_at ON storehost_answers (answered_at);
    INSERT INTO storehost_answers
    SELECT s.id, a.key, a."bodyDigest", a.status, a.body, a.version, a."answeredAt" + 978307200
    FROM storehost_sessions s, json_to_recordset(s.answers::json)
      AS a(key text, "bodyDigest" text, status integer, body text, version bigint, "answeredAt" double precision)
    WHERE s.answers IS NOT NULL
    ON CONFLICT DO NOTHING;
    UPDATE storehost_sessions SET answers = NULL;
    """,
    """
    ALTER TABLE storehost_sessions ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
    """,
    """
    CREATE INDEX storehost_sessions_last_active_at ON storehost_sessions (last_active_at);
    ALTER TABLE storehost_shared ADD COLUMN write_id text;
    """,
  ]

  /// Creates or migrates the tables on `connection` to ``currentVersion``.
  /// - Throws: ``SessionPersistenceError/unsupportedSchema(version:)`` when a newer StoreHost
  ///   already migrated the database further.
  static func migrate(_ connection: PostgresConnection) throws {
    try connection.execute("BEGIN")
    do {
      try connection.execute("SELECT pg_advisory_xact_lock(7352001)")
      try connection.execute("CREATE TABLE IF NOT EXISTS storehost_schema_version (version integer NOT NULL)")
      let rows = try connection.execute("SELECT version FROM storehost_schema_version")
      let stored = rows.first.flatMap { $0.first ?? nil }.flatMap { Int($0) }
      if stored == nil { try connection.execute("INSERT INTO storehost_schema_version VALUES (0)") }
      let version = stored ?? 0
      guard version <= currentVersion else { throw SessionPersistenceError.unsupportedSchema(version: version) }
      for migration in migrations[version...] { try connection.execute(migration) }
      try connection.execute("UPDATE storehost_schema_version SET version = \(currentVersion)")
      try connection.execute("COMMIT")
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
  }
}
