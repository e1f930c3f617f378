import Foundation
import Testing

@testable import StoreHost

@Suite struct SQLiteSessionPersistenceTests {
  @Test(arguments: Durability.allCases)
  func savesAndLoadsSnapshots(durability: Durability) async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(durability)
    let first = snapshot(SessionID("first")!, version: 1)
    let second = snapshot(SessionID("second")!, version: 7)
    try await persistence.save(first)
    try await persistence.save(second)
    #expect(try await persistence.loadAll() == [first, second])
    try await persistence.close()
  }

  @Test func aRestartRecoversTheLatestVersionOfEachSession() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let ids = (0..<20).map { _ in SessionID.random() }
    let persistence = try await database.open()
    for version in 1...5 {
      for id in ids { try await persistence.save(snapshot(id, version: version)) }
    }
    try await persistence.close()

    let reopened = try await database.open()
    let loaded = try await reopened.loadAll()
    #expect(loaded == ids.sorted { $0.rawValue < $1.rawValue }.map { snapshot($0, version: 5) })
    try await reopened.close()
  }

  @Test func keepsTheFirstCreationTimeAndIgnoresOlderVersions() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.strict)
    let id = SessionID.random()
    try await persistence.save(snapshot(id, version: 3, created: 1_000))
    try await persistence.save(snapshot(id, version: 2, created: 2_000))
    try await persistence.save(snapshot(id, version: 4, created: 3_000, lastActive: 5_000))
    let loaded = try await persistence.loadAll()
    #expect(loaded.map(\.version) == [4])
    #expect(loaded.first?.createdAt == Date(timeIntervalSince1970: 1_000))
    #expect(loaded.first?.lastActiveAt == Date(timeIntervalSince1970: 5_000))
    try await persistence.close()
  }

  @Test(arguments: Durability.allCases)
  func deleteForgetsASession(durability: Durability) async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(durability)
    let kept = snapshot(SessionID("kept")!, version: 1)
    try await persistence.save(kept)
    try await persistence.save(snapshot(SessionID("gone")!, version: 1))
    try await persistence.flush()
    try await persistence.delete(SessionID("gone")!)
    try await persistence.close()

    let reopened = try await database.open()
    #expect(try await reopened.loadAll() == [kept])
    try await reopened.close()
  }

  @Test func fastSavesCoalesceAndAreWrittenWithinTheBatchDelay() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.fast, batchDelay: .milliseconds(50))
    let id = SessionID.random()
    for version in 1...100 { try await persistence.save(snapshot(id, version: version)) }
    // Another connection sees the last version once the delay has passed, without a flush.
    let observer = try await database.open()
    let expected = [snapshot(id, version: 100)]
    #expect(try await eventuallyLoad(expected, from: observer) == expected)
    try await observer.close()
    #expect(persistence.statistics.writtenChanges < 100)
    try await persistence.close()
  }

  @Test func aLoadSeesTheSessionsQueuedSaveAndDelete() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    // A delay no test waits out: only the load itself can make the changes visible.
    let persistence = try await database.open(.fast, batchDelay: .seconds(600))
    let kept = SessionID.random()
    let deleted = SessionID.random()
    try await persistence.save(snapshot(kept, version: 1))
    try await persistence.save(snapshot(deleted, version: 1))
    try await persistence.flush()
    try await persistence.save(snapshot(kept, version: 2))
    try await persistence.delete(deleted)
    #expect(try await persistence.load(kept) == snapshot(kept, version: 2))
    #expect(try await persistence.load(deleted) == nil)
    try await persistence.close()
  }

  @Test func strictSavesAreDurableWhenTheyReturn() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.strict)
    let observer = try await database.open()
    let id = SessionID.random()
    for version in 1...20 {
      try await persistence.save(snapshot(id, version: version))
      #expect(try await observer.loadAll() == [snapshot(id, version: version)])
    }
    try await observer.close()
    try await persistence.close()
  }

  @Test func concurrentStrictSavesShareCommitsAndKeepTheLastVersions() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.strict)
    let ids = (0..<64).map { _ in SessionID.random() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in ids {
        group.addTask {
          for version in 1...25 { try await persistence.save(snapshot(id, version: version)) }
        }
      }
      try await group.waitForAll()
    }
    let loaded = try await persistence.loadAll()
    #expect(loaded.count == 64)
    #expect(loaded.allSatisfy { $0 == snapshot($0.id, version: 25) })
    // Saves waiting together shared transactions: fewer commits than saves.
    let statistics = persistence.statistics
    #expect(statistics.commits < 64 * 25)
    print("group commit: \(64 * 25) strict saves in \(statistics.commits) commits")
    try await persistence.close()
  }

  @Test func everyAcknowledgedStrictSaveSurvivesACrash() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    // The "crashed" writer is never closed or flushed: only what its saves acknowledged
    // counts, and a second connection must see all of it.
    let crashed = try await database.open(.strict)
    let ids = (0..<8).map { _ in SessionID.random() }
    var acknowledged: [SessionID: Int] = [:]
    for version in 1...10 {
      for id in ids {
        try await crashed.save(snapshot(id, version: version))
        acknowledged[id] = version
      }
    }
    let survivor = try await database.open(.strict)
    let recovered = try await survivor.loadAll()
    withExtendedLifetime(crashed) {}
    #expect(Dictionary(uniqueKeysWithValues: recovered.map { ($0.id, $0.version) }) == acknowledged)
    try await survivor.close()
  }

  /// Another connection makes SQLite refuse every write of the session `poison`.
  private func refusePoison(in database: TemporaryDatabase) throws -> SQLiteConnection {
    let saboteur = try SQLiteConnection(path: database.path)
    try saboteur.execute("PRAGMA busy_timeout=5000")
    try saboteur.execute(
      """
      CREATE TRIGGER refuse_poison BEFORE INSERT ON sessions WHEN NEW.id = 'poison'
      BEGIN SELECT RAISE(ABORT, 'poisoned'); END
      """)
    return saboteur
  }

  @Test func aRefusedChangeDoesNotHoldBackItsBatchAndIsRetried() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.fast, batchDelay: .milliseconds(10))
    let saboteur = try refusePoison(in: database)
    let good = snapshot(SessionID("good")!, version: 1)
    let poison = snapshot(SessionID("poison")!, version: 1)
    try await persistence.save(poison)
    try await persistence.save(good)
    await #expect(throws: SQLiteError.self) { try await persistence.flush() }
    let observer = try await database.open()
    #expect(try await observer.loadAll() == [good])

    // Once SQLite accepts it again, the failed change is written by a retry.
    try saboteur.execute("DROP TRIGGER refuse_poison")
    #expect(try await eventuallyLoad([good, poison], from: observer) == [good, poison])
    try await observer.close()
    try await persistence.close()
  }

  @Test func aRefusedStrictSaveFailsOnlyItsOwnCallerAndIsNeverWrittenLater() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.strict)
    let saboteur = try refusePoison(in: database)
    let good = snapshot(SessionID("good")!, version: 1)
    let poisonSave = Task { try await persistence.save(snapshot(SessionID("poison")!, version: 1)) }
    let goodSave = Task { try await persistence.save(good) }
    try await goodSave.value
    await #expect(throws: SQLiteError.self) { try await poisonSave.value }

    // Its caller was told it failed, so it is not retried once SQLite would accept it.
    try saboteur.execute("DROP TRIGGER refuse_poison")
    try await persistence.save(snapshot(SessionID("later")!, version: 1))
    try await persistence.close()
    let observer = try await database.open()
    #expect(try await observer.loadAll().map(\.id) == [SessionID("good")!, SessionID("later")!])
    try await observer.close()
  }

  @Test func callsAfterCloseFail() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    for durability in Durability.allCases {
      let persistence = try await database.open(durability)
      try await persistence.close()
      await #expect(throws: SessionPersistenceError.closed) { try await persistence.save(snapshot(.random(), version: 1)) }
      await #expect(throws: SessionPersistenceError.closed) { try await persistence.loadAll() }
      await #expect(throws: SessionPersistenceError.closed) { try await persistence.close() }
    }
  }

  @Test func refusesADatabaseFromANewerSchema() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    do {
      let connection = try SQLiteConnection(path: database.path)
      try connection.execute("PRAGMA user_version=99")
    }
    await #expect(throws: SessionPersistenceError.unsupportedSchema(version: 99)) { try await database.open() }
  }

  @Test func answersAreSavedWithTheirVersionAndLoadedBack() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open(.strict)
    let id = SessionID.random()
    let at = Date(timeIntervalSince1970: 1_700_000_000)
    let answers = [
      RememberedAnswer(key: "k1", bodyDigest: "d1", status: 202, body: #"{"version":1}"#, version: 1, answeredAt: at),
      RememberedAnswer(key: "k2", bodyDigest: "d2", status: 413, body: #"{"error":{}}"#, version: 1, answeredAt: at),
    ]
    var saved = snapshot(id, version: 1)
    saved.answers = answers
    try await persistence.save(saved)
    try await persistence.close()
    let reopened = try await database.open()
    #expect(try await reopened.loadAll() == [saved])
    try await reopened.close()
  }

  @Test func aSchemaOneDatabaseGainsAnswersAndKeepsItsSessions() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    do {
      let connection = try SQLiteConnection(path: database.path)
      try connection.execute(
        """
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, state BLOB NOT NULL,
          created_at_ms INTEGER NOT NULL, last_active_at_ms INTEGER NOT NULL);
        INSERT INTO sessions VALUES ('AAAAAAAAAAAAAAAAAAAAAA', 3, '{}', 1700000000000, 1700000000000);
        PRAGMA user_version=1;
        """)
    }
    let persistence = try await database.open()
    let loaded = try await persistence.loadAll()
    #expect(loaded.map(\.version) == [3] && loaded.first?.answers == [])
    var next = try #require(loaded.first)
    next.version = 4
    next.answers = [RememberedAnswer(key: "k", bodyDigest: "d", status: 202, body: "{}", version: 4, answeredAt: Date())]
    try await persistence.save(next)
    try await persistence.flush()
    #expect(try await persistence.loadAll().first?.answers.map(\.key) == ["k"])
    try await persistence.close()
  }

  @Test func openingInAMissingDirectoryFails() async throws {
    await #expect(throws: SQLiteError.self) {
      try await SQLiteSessionPersistence.open(path: "/nonexistent-\(UUID().uuidString)/sessions.sqlite")
    }
  }
}
