import Foundation
import HTTP
import StoreHost

/// Sessions in a PostgreSQL database shared by several StoreHost processes
/// (`--database postgres://...`).
///
/// Saves are fenced by ownership: a process writes a session only while it owns the session
/// at the save's epoch (see `SessionLeases`), and only a newer version replaces an older
/// one, so a process that lost the session, and a session instance it replaced, can never
/// overwrite the new owner's state. Each save
/// announces the new version on `PostgresSchema/sessionChannel` in the same transaction
/// (`SessionNotification`), so processes streaming the session learn of it in commit order.
///
/// Durability: `strict` saves return after a synchronous commit (the database's WAL is
/// flushed); saves waiting at the same time share one transaction (`PostgresSaveBatcher`),
/// so throughput grows with concurrent sessions instead of being one WAL flush per save;
/// `fast` connections use `synchronous_commit = off`, so a database crash may lose
/// the last fraction of a second but never leaves a torn state. The connection pool's
/// threads run the blocking libpq calls (`PostgresPool`).
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
  ///   - poolSize: Connections to the database; `nil` for `PostgresPool`'s default of 4.
  /// - Throws: A ``PostgresError`` when the database is unreachable.
  public static func open(
    url: String,
    processID: String,
    durability: Durability = .fast,
    leaseDuration: Duration = PostgresCluster.defaultLeaseDuration,
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
      let answers = try Self.answers(on: connection, of: nil)
      return try connection.execute("SELECT \(SessionSnapshot.columns) FROM storehost_sessions").map {
        var snapshot = try SessionSnapshot(row: $0)
        snapshot.answers = answers[snapshot.id] ?? []
        return snapshot
      }
    }
  }

  public func load(_ id: SessionID) async throws -> SessionSnapshot? {
    try await pool.run { connection in
      guard
        var snapshot = try connection.execute(
          "SELECT \(SessionSnapshot.columns) FROM storehost_sessions WHERE id = $1", [id.rawValue]
        ).first.map(SessionSnapshot.init(row:))
      else { return nil }
      snapshot.answers = try Self.answers(on: connection, of: [id])[id] ?? []
      return snapshot
    }
  }

  public func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  {
    try await pool.run { connection in
      try connection.execute(
        """
        SELECT id FROM storehost_sessions WHERE last_active_at >= $1 AND last_active_at < $2 AND state_version <= $4
        ORDER BY last_active_at DESC LIMIT $3
        """,
        [
          String(range.lowerBound.timeIntervalSince1970), String(range.upperBound.timeIntervalSince1970), String(limit),
          String(min(stateVersion, Int(Int32.max))),
        ]
      ).compactMap { $0.first.flatMap { $0 }.flatMap(SessionID.init) }
    }
  }

  /// Stores `snapshot` and announces it: version 0 creates the session, owned by this
  /// process at the save's epoch; a later version replaces the stored one only while this
  /// process owns the session at that epoch, the stored version is older and no newer build
  /// wrote it. Its new answers are written in the same statement, so they are durable
  /// exactly when the state is.
  /// - Throws: `StoreHost/SessionOwnershipLost` when the session is not this process's at
  ///   the save's epoch (taken over, handed over, deleted); `StoreHost/SaveOutcomeUnknown`
  ///   when the connection failed while committing.
  public func save(_ save: SessionSave) async throws {
    let snapshot = try save.snapshot()
    let state = String(decoding: snapshot.state, as: UTF8.self)
    let payload = SessionNotification.payload(id: snapshot.id, version: snapshot.version, state: state)
    let lastActive = String(snapshot.lastActiveAt.timeIntervalSince1970)
    let answers = Self.answersJSON(snapshot.answers)
    let versions = [String(snapshot.stateVersion), String(snapshot.reservedVersion), String(snapshot.epoch)]
    if snapshot.version == 0 {
      try await batcher.save(
        snapshot.id, epoch: snapshot.epoch, sql: Self.insert,
        parameters: [
          snapshot.id.rawValue, state, String(snapshot.createdAt.timeIntervalSince1970), lastActive, processID,
          payload, answers,
        ] + versions)
    } else {
      try await batcher.save(
        snapshot.id, epoch: snapshot.epoch, sql: Self.update,
        parameters: [snapshot.id.rawValue, String(snapshot.version), state, lastActive, processID, payload, answers]
          + versions)
    }
  }

  /// Writes the answers of `saved` (a CTE returning the saved row's `id`) given as the JSON
  /// array `$7`; part of every save statement.
  private static let answersOfSaved = """
    answered AS (
      INSERT INTO storehost_answers (session_id, key, body_digest, status, body, version, answered_at)
      SELECT saved.id, a.key, a.digest, a.status, a.body, a.version, a.at
      FROM saved, json_to_recordset($7::json)
        AS a(key text, digest text, status integer, body text, version bigint, at double precision)
      ON CONFLICT (session_id, key) DO UPDATE SET body_digest = excluded.body_digest, status = excluded.status,
        body = excluded.body, version = excluded.version, answered_at = excluded.answered_at)
    """

  /// Creates a session at version 0, owned by this process at an epoch, and announces it at
  /// commit; saved again at version 0 (with new answers), it updates the row while this
  /// process owns it at that epoch. Returns a row when it saved. Parameters: id, state,
  /// created_at, last_active_at, owner, notification payload, answers, state version,
  /// reserved version, epoch.
  static let insert = """
    WITH saved AS (
      INSERT INTO storehost_sessions
        (id, version, state, created_at, last_active_at, owner, state_version, reserved_version, epoch)
      VALUES ($1, 0, $2, $3, $4, $5, $8, $9, $10)
      ON CONFLICT (id) DO UPDATE SET last_active_at = excluded.last_active_at, reserved_version = excluded.reserved_version
      WHERE storehost_sessions.owner = $5 AND storehost_sessions.epoch = $10 AND storehost_sessions.version = 0
      RETURNING id),
    \(answersOfSaved)
    SELECT pg_notify('\(PostgresSchema.sessionChannel)', $6) FROM saved
    """

  /// Stores a newer version of a session this process owns at the save's epoch (or the same
  /// version with newer answers), and announces it at commit. Returns a row when it saved:
  /// never for a session taken over, handed over or released since (its epoch moved on),
  /// deleted meanwhile, or written by a newer build, so a stalled former owner cannot
  /// overwrite or bring it back. Parameters: id, version, state, last_active_at, owner,
  /// notification payload, answers, state version, reserved version, epoch.
  static let update = """
    WITH saved AS (
      UPDATE storehost_sessions SET version = $2, state = $3, last_active_at = $4, state_version = $8,
        reserved_version = $9
      WHERE id = $1 AND owner = $5 AND epoch = $10 AND version <= $2 AND state_version <= $8
      RETURNING id),
    \(answersOfSaved)
    SELECT pg_notify('\(PostgresSchema.sessionChannel)', $6) FROM saved
    """

  /// Relabels and reserves versions of sessions this process owns, in one statement.
  public func reserve(_ reservations: [SessionReservation]) async throws {
    guard !reservations.isEmpty else { return }
    let rows = JSONValue.array(
      reservations.map {
        ["id": .string($0.id.rawValue), "version": .int(Int64($0.version)), "reserved": .int(Int64($0.reservedVersion))]
      })
    try await pool.run { [processID] connection in
      try connection.execute(
        """
        UPDATE storehost_sessions s SET version = r.version, reserved_version = r.reserved
        FROM json_to_recordset($1::json) AS r(id text, version bigint, reserved bigint)
        WHERE s.id = r.id AND s.owner = $2 AND s.version <= r.version
        """, [rows.jsonString, processID])
    }
  }

  /// Deletes the session with its answers, and announces it (version
  /// `SessionNotification/deletedVersion`).
  public func delete(_ id: SessionID) async throws {
    let payload = "\(id) \(SessionNotification.deletedVersion)"
    try await pool.run { connection in
      try connection.execute(
        """
        WITH deleted AS (DELETE FROM storehost_sessions WHERE id = $1 RETURNING id),
        forgotten AS (DELETE FROM storehost_answers WHERE session_id = $1)
        SELECT pg_notify('\(PostgresSchema.sessionChannel)', $2) FROM deleted
        """, [id.rawValue, payload])
    }
  }

  public func forgetAnswers(answeredBefore date: Date) async throws {
    try await pool.run { connection in
      try connection.execute(
        "DELETE FROM storehost_answers WHERE answered_at < $1", [String(date.timeIntervalSince1970)])
    }
  }

  /// Every save and delete is committed before it returns, so there is nothing to wait for.
  /// Every process streams a session from its saves' notifications: each version is saved.
  public var streamsFromSaves: Bool { true }

  public func flush() async throws {
    try await pool.run { _ in }
  }

  /// Runs a statement on one of the pool's connections.
  public func probe() async throws {
    try await pool.run { try $0.execute("SELECT 1") }
  }

  public func close() async throws {
    pool.close()
  }

  /// `answers` as the JSON array the save statements read.
  private static func answersJSON(_ answers: [RememberedAnswer]) -> String {
    JSONValue.array(
      answers.map {
        [
          "key": .string($0.key), "digest": .string($0.bodyDigest), "status": .int(Int64($0.status)),
          "body": .string($0.body), "version": .int(Int64($0.version)), "at": .double($0.answeredAt.timeIntervalSince1970),
        ]
      }
    ).jsonString
  }

  /// The remembered answers of the sessions `ids` (of every session when `nil`), by session.
  static func answers(on connection: PostgresConnection, of ids: [SessionID]?) throws -> [SessionID: [RememberedAnswer]] {
    let columns = "session_id, key, body_digest, status, body, version, answered_at"
    let rows =
      if let ids {
        try connection.execute(
          "SELECT \(columns) FROM storehost_answers WHERE session_id = ANY($1::text[])",
          ["{" + ids.map(\.rawValue).joined(separator: ",") + "}"])
      } else {
        try connection.execute("SELECT \(columns) FROM storehost_answers")
      }
    var answers: [SessionID: [RememberedAnswer]] = [:]
    for row in rows {
      guard row.count == 7, let id = row[0].flatMap(SessionID.init), let key = row[1], let digest = row[2],
        let status = row[3].flatMap({ Int($0) }), let body = row[4], let version = row[5].flatMap({ Int($0) }),
        let at = row[6].flatMap({ Double($0) })
      else { continue }
      answers[id, default: []].append(
        RememberedAnswer(
          key: key, bodyDigest: digest, status: status, body: body, version: version,
          answeredAt: Date(timeIntervalSince1970: at)))
    }
    return answers
  }
}

extension SessionSnapshot {
  /// The columns ``init(row:)`` reads, in order.
  static let columns = "id, version, state, created_at, last_active_at, state_version, reserved_version, epoch"

  /// A row of ``columns``, without answers (the epoch may be left out: 0).
  init(row: [String?]) throws {
    guard row.count == 7 || row.count == 8, let id = row[0].flatMap(SessionID.init),
      let version = row[1].flatMap({ Int($0) }), let state = row[2], let created = row[3].flatMap({ Double($0) }),
      let active = row[4].flatMap({ Double($0) }), let stateVersion = row[5].flatMap({ Int($0) }),
      let reserved = row[6].flatMap({ Int($0) })
    else { throw SessionPersistenceError.invalidRecord("unreadable row in storehost_sessions") }
    self.init(
      id: id, version: version, state: Data(state.utf8), stateVersion: stateVersion, reservedVersion: reserved,
      createdAt: Date(timeIntervalSince1970: created), lastActiveAt: Date(timeIntervalSince1970: active),
      epoch: row.count == 8 ? row[7].flatMap { Int($0) } ?? 0 : 0)
  }
}

extension Duration {
  /// The duration as a PostgreSQL interval literal in milliseconds, e.g. `4000 milliseconds`.
  var postgresInterval: String {
    "\(millisecondsValue) milliseconds"
  }
}
