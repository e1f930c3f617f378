import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

@Suite struct HistoryPersistenceTests {
  /// A session with a few steps, saved.
  private func recordedSession(
    in host: SessionHost<Journal.State, Journal.Action>
  ) async throws -> Session<Journal.State, Journal.Action> {
    let session = try await host.createSession()
    for action: Journal.Action in [.increment, .add("milk"), .incrementTwice] { session.store.send(action) }
    try await session.flush()
    return session
  }

  @Test func theHistoryOutlivesACleanRestartAndGoesOnFromItsLastStep() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let first = journalHost(try await database.open())
    let session = try await recordedSession(in: first)
    let before = try await first.records(of: session)
    await first.shutdown()
    // A session is read back with an outline of its steps: where the whole states are, and the last.
    let reopened = try await database.open()
    let outline = try #require(try await reopened.load(session.id)).history
    #expect(outline.map(\.step) == [0, 3] && outline.allSatisfy(\.json.isEmpty) && outline.map(\.state) == [[], nil])
    #expect(try await reopened.loadAll().first?.history == outline)
    try await reopened.close()

    let second = journalHost(try await database.open())
    #expect(second.sessionCount == 0)
    let restored = try await second.liveSession(session.id)
    let after = try await second.records(of: restored)
    #expect(Array(after.prefix(before.count)) == before)
    // Rebuilt here: a step at the same version, holding the whole state, with the next number.
    #expect(after.count == before.count + 1)
    #expect(after.last?.step == before.last!.step + 1 && after.last?.version == session.version)
    #expect(try JSONValue(parsing: after.last!.json)["kind"] == "resumed")
    #expect(after.last?.state != nil)
    restored.store.send(.increment)
    #expect(try await historySteps(of: restored, in: second).last?["version"] == .int(Int64(session.version + 1)))
    // Nothing in the history was lost or changed: a replay finds no difference.
    let token = second.tokenSigner.issue(sessionID: session.id)
    let replay = try JSONValue(parsing: await request(second, "POST", "/api/sessions/\(session.id)/replay", token: token, body: "").body)
    #expect(replay["replay"]?["firstDifference"] == .null && replay["replay"]?["from"] == 0)
    await second.shutdown()
  }

  @Test func aRestingSessionsHistoryStaysStoredAndComesBackWithIt() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open()
    let host = journalHost(persistence)
    let session = try await recordedSession(in: host)
    let before = try await host.records(of: session)
    await host.evictIdleSessions(now: .now + .seconds(61))
    #expect(host.sessionCount == 0)
    // At rest, the history is in the database only, every step of it.
    let stored = try #require(try SQLiteSessionPersistence.readSession(session.id, path: database.path)).history
    #expect(stored == before)

    // A request for the history brings the session back, with an outline of its steps in memory.
    let token = host.tokenSigner.issue(sessionID: session.id)
    let page = try JSONValue(parsing: await request(host, "GET", "/api/sessions/\(session.id)/history", token: token).body)
    let back = try #require(host.session(session.id))
    #expect(back !== session)
    #expect(page["steps"]?.arrayCount == before.count + 1)
    #expect(try #require(back.history).inMemory.steps.allSatisfy { $0.step >= before.count })
    #expect(try await host.records(of: back).prefix(before.count) == before[...])
    await host.shutdown()
  }

  @Test func afterACrashTheVersionsJumpAndTheHistoryGoesOnAcrossTheGap() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let crashed = journalHost(try await database.open())
    let session = try await recordedSession(in: crashed)
    // The process dies: nothing more is saved, and nothing is finished.
    let second = journalHost(try await database.open())
    let restored = try await second.liveSession(session.id)
    let versions = try await historySteps(of: restored, in: second).map(\.["version"])
    #expect(versions.dropLast() == [0, 1, 2, 3].map { .int(Int64($0)) }[...])
    #expect(versions.last == .int(Int64(session.version + Session<Journal.State, Journal.Action>.fastReservationWindow + 1)))
    restored.store.send(.increment)
    let token = second.tokenSigner.issue(sessionID: session.id)
    let old = try JSONValue(parsing: await request(second, "GET", "/api/sessions/\(session.id)/history/2", token: token).body)
    #expect(old["state"]?["count"] == 1 && old["state"]?["entries"]?.arrayCount == 1)
    let test = String(decoding: await request(second, "GET", "/api/sessions/\(session.id)/history/test.swift", token: token).body, as: UTF8.self)
    #expect(test.contains("from version 0 to version \(restored.version)"))
    #expect(test.contains("the session was rebuilt here, with the same state"))
    await crashed.shutdown()
    await second.shutdown()
  }

  @Test func onlyTheKeptStepsAreStoredAndADeletedSessionTakesItsHistoryAlong() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open()
    let host = journalHost(persistence, history: 10)
    let kept = try await host.createSession()
    let deleted = try await host.createSession()
    for _ in 0..<40 {
      kept.store.send(.increment)
      deleted.store.send(.increment)
    }
    try await kept.flush()
    try await deleted.flush()
    try await persistence.flush()
    let stored = try #require(try SQLiteSessionPersistence.readSession(kept.id, path: database.path)).history
    #expect(stored == (try await host.records(of: kept)))
    // Memory holds no saved step: only where the whole states are.
    #expect(try #require(kept.history).inMemory.steps.isEmpty)
    #expect(stored.count == 10 && stored.last?.version == 40)
    await host.end(deleted)
    try await persistence.flush()
    #expect(try SQLiteSessionPersistence.readSession(deleted.id, path: database.path) == nil)
    let connection = try SQLiteConnection(path: database.path, readOnly: true)
    let rows = try connection.prepare("SELECT count(*) FROM history_runs WHERE session_id = ?1")
    try rows.bind(.text(deleted.id.rawValue))
    #expect(try rows.step() && rows.integer(at: 0) == 0)
    await host.shutdown()
  }

  @Test func savesDeleteStoredStepsOnlyOnceTheOldestKeptStepMovesOn() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open()
    // 30 steps, a whole state every third: the oldest kept step moves three steps at a time.
    let host = journalHost(persistence, history: 30)
    let session = try await host.createSession()
    let history = try #require(session.history)
    for _ in 0..<60 {
      session.store.send(.increment)
      try await session.flush()
      try await persistence.flush()
      let stored = try #require(try SQLiteSessionPersistence.readSession(session.id, path: database.path)).history
      #expect(stored == (try await host.records(of: session)))
      // Another save now keeps the oldest step the durable one kept: nothing to delete.
      #expect(!history.saving(through: session.version).write().dropsEarlierSteps)
    }
    let stored = try #require(try SQLiteSessionPersistence.readSession(session.id, path: database.path)).history
    #expect(stored.count <= 32 && stored.first.map { $0.step > 0 } == true && stored.last?.version == 60)
    await host.shutdown()
  }

  @Test func aHostStartedWithoutHistoryDeletesTheKeptOne() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let first = journalHost(try await database.open())
    let session = try await recordedSession(in: first)
    await first.shutdown()
    #expect(try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history.isEmpty == false)

    let second = journalHost(try await database.open(), history: 0)
    second.startEvictingIdleSessions()
    let deadline = ContinuousClock.now + .seconds(10)
    while try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history.isEmpty == false,
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history == [])
    let back = try await second.liveSession(session.id)
    #expect(back.store.snapshot.state.count == 3 && back.history == nil)
    await second.shutdown()
  }

  @Test func aSchemaThreeDatabaseGainsTheHistoryTable() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    try await (try await database.open()).close()
    do {
      let connection = try SQLiteConnection(path: database.path)
      try connection.execute("DROP TABLE history_runs; PRAGMA user_version=3;")
    }
    let host = journalHost(try await database.open())
    let session = try await recordedSession(in: host)
    await host.shutdown()
    #expect(try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history.count == 4)
  }

  @Test func aSchemaFourFilesStepsMoveIntoRunsUnchangedAndReadAsBeforeUntilThen() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let first = journalHost(try await database.open())
    let session = try await recordedSession(in: first)
    await first.shutdown()
    let stored = try #require(try SQLiteSessionPersistence.readSession(session.id, path: database.path)).history
    #expect(stored.count == 4)
    // The file as schema 4 kept it: a row per step.
    do {
      let connection = try SQLiteConnection(path: database.path)
      try connection.execute(
        """
        CREATE TABLE history (
          session_id TEXT NOT NULL, step INTEGER NOT NULL, version INTEGER NOT NULL,
          state_version INTEGER NOT NULL, step_json BLOB NOT NULL, state BLOB,
          PRIMARY KEY (session_id, step)
        ) WITHOUT ROWID;
        DROP TABLE history_runs;
        PRAGMA user_version=4;
        """)
      let insert = try connection.prepare("INSERT INTO history VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      for record in stored {
        try insert.bind(
          .text(session.id.rawValue), .integer(Int64(record.step)), .integer(Int64(record.version)),
          .integer(Int64(record.stateVersion)), .bytes(record.json), record.state.map { .bytes($0) } ?? .null)
        _ = try insert.step()
      }
    }
    // Read without migrating, as the next build's deploy check reads the serving build's file.
    #expect(try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history == stored)
    #expect(try SessionTable.userVersion(SQLiteConnection(path: database.path, readOnly: true)) == 4)

    // Served by this build: the steps move into runs, unchanged, and the history goes on.
    let second = journalHost(try await database.open())
    let restored = try await second.liveSession(session.id)
    restored.store.send(.increment)
    try await restored.flush()
    let after = try await second.records(of: restored)
    #expect(Array(after.prefix(stored.count)) == stored && after.count == stored.count + 2)
    await second.shutdown()
    #expect(try SQLiteSessionPersistence.readSession(session.id, path: database.path)?.history == after)
    let connection = try SQLiteConnection(path: database.path, readOnly: true)
    #expect(try SessionTable.userVersion(connection) == SessionTable.schemaVersion)
    let tables = try connection.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'history'")
    try tables.bind()
    #expect(try tables.step() && tables.integer(at: 0) == 0)
  }
}
