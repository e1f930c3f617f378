import Foundation
import StoreHost
import Testing

@testable import StoreHostPostgres

/// Fenced saves on a real PostgreSQL. Runs when `STOREHOST_TEST_DATABASE` names a database
/// (Tests/Integration/cluster_postgres.sh sets it); skipped otherwise.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] != nil))
struct PostgresSessionPersistenceTests {
  private let url = ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] ?? ""

  @Test func aFormerOwnerCannotOverwriteTheNewOwner() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0))
    try await a.save(snapshot(id, version: 1))
    // `a` never registered a heartbeat, so its lease counts as run out.
    guard case (.acquired(let taken), _) = try await leases(b).acquire(id, stateVersion: 0, reservationWindow: 0) else {
      Issue.record("b should take the session over")
      try await a.close()
      try await b.close()
      return
    }
    #expect(taken.version == 1)
    await #expect(throws: SessionOwnershipLost.self) { try await a.save(snapshot(id, version: 2, count: 99)) }
    var saved = snapshot(id, version: 2)
    saved.epoch = taken.epoch
    try await b.save(saved)
    #expect(try await stored(id, in: b)?.version == 2)
    #expect(try await stored(id, in: b)?.state == saved.state)
    try await a.close()
    try await b.close()
  }

  @Test func aDeletedSessionStaysDeleted() async throws {
    let a = try await open("a")
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0))
    try await a.save(snapshot(id, version: 1))
    try await a.delete(id)
    await #expect(throws: SessionOwnershipLost.self) { try await a.save(snapshot(id, version: 2)) }
    #expect(try await stored(id, in: a) == nil)
    try await a.close()
  }

  @Test func anOlderVersionNeverReplacesANewerOne() async throws {
    let a = try await open("a")
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0))
    try await a.save(snapshot(id, version: 3))
    try await a.save(snapshot(id, version: 2))
    #expect(try await stored(id, in: a)?.version == 3)
    try await a.close()
  }

  @Test func concurrentSavesShareTransactions() async throws {
    let a = try await open("a")
    let ids = (0..<40).map { _ in SessionID.random() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in ids {
        group.addTask {
          for version in 0...5 { try await a.save(snapshot(id, version: version)) }
        }
      }
      try await group.waitForAll()
    }
    for id in ids { #expect(try await stored(id, in: a)?.version == 5) }
    try await a.close()
  }

  @Test func aTakeoverGoesOnPastTheVersionsTheLastOwnerReserved() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0))
    var reserving = snapshot(id, version: 4)
    reserving.reservedVersion = 104
    let answer = RememberedAnswer(
      key: "k", bodyDigest: "d", status: 202, body: #"{"version":4}"#, version: 4,
      answeredAt: Date(timeIntervalSince1970: 1_700_000_000))
    reserving.answers = [answer]
    try await a.save(reserving)
    guard case (.acquired(let taken), _) = try await leases(b).acquire(id, stateVersion: 0, reservationWindow: 50) else {
      Issue.record("b should take the session over")
      return
    }
    // Versions 5...104 may have been shown by `a` and lost: `b` goes on from 105, with 50
    // more reserved, and the answer saved with version 4 comes along.
    #expect(taken.version == 105 && taken.reservedVersion == 155)
    #expect(taken.state == reserving.state)
    #expect(taken.answers == [answer])
    #expect(try await stored(id, in: b)?.version == 105)
    try await a.close()
    try await b.close()
  }

  @Test func aSessionANewerBuildSavedIsNeitherTakenOverNorOverwritten() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0))
    var newer = snapshot(id, version: 1)
    newer.stateVersion = 3
    try await a.save(newer)
    // An older build's save of the same session changes nothing.
    try? await a.save(snapshot(id, version: 2))
    let (acquisition, _) = try await leases(b).acquire(id, stateVersion: 2, reservationWindow: 0)
    guard case .savedByNewerBuild = acquisition else {
      Issue.record("b cannot read it, so must not take it: \(acquisition)")
      return
    }
    #expect(try await stored(id, in: b)?.stateVersion == 3)
    #expect(try await stored(id, in: b)?.version == 1)
    try await a.close()
    try await b.close()
  }

  @Test func expiredSessionsAreDeletedByExactlyOneProcessWithTheirAnswersAndANewerBuildsAreKept() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    // Older than any other test's rows, so only these count as expired here.
    let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
    let idle = Duration.seconds(Date().timeIntervalSince1970 - 1_500_000_000)
    func expiredSnapshot(stateVersion: Int = 0) -> SessionSnapshot {
      SessionSnapshot(
        id: .random(), version: 0, state: Data(#"{"count":0}"#.utf8), stateVersion: stateVersion, createdAt: longAgo,
        lastActiveAt: longAgo,
        answers: [RememberedAnswer(key: "k", bodyDigest: "d", status: 202, body: "{}", version: 0, answeredAt: longAgo)])
    }
    let expired = (0..<10).map { _ in expiredSnapshot() }
    let newer = expiredSnapshot(stateVersion: 3)
    for snapshot in expired + [newer] { try await a.save(snapshot) }

    async let deletedByA = leases(a).deleteExpired(idleFor: idle, stateVersion: 0, limit: 1000)
    async let deletedByB = leases(b).deleteExpired(idleFor: idle, stateVersion: 0, limit: 1000)
    let (byA, byB) = try await (deletedByA, deletedByB)
    #expect(Set(byA).isDisjoint(with: byB))
    #expect(Set(byA + byB) == Set(expired.map(\.id)))
    for snapshot in expired { #expect(try await stored(snapshot.id, in: b) == nil) }
    #expect(try await stored(newer.id, in: b)?.stateVersion == 3)
    let answersLeft = try await a.pool.run { connection in
      try connection.execute(
        "SELECT count(*) FROM storehost_answers WHERE session_id = ANY($1)",
        ["{" + expired.map(\.id.rawValue).joined(separator: ",") + "}"])
    }
    #expect(answersLeft.first?.first == "0")
    try await a.close()
    try await b.close()
  }

  private func open(_ name: String) async throws -> PostgresSessionPersistence {
    try await PostgresSessionPersistence.open(
      url: url, processID: "test-\(name)-\(UUID().uuidString)", durability: .strict)
  }

  private func snapshot(_ id: SessionID, version: Int, count: Int? = nil) -> SessionSnapshot {
    SessionSnapshot(
      id: id, version: version, state: Data(#"{"count":\#(count ?? version)}"#.utf8),
      createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastActiveAt: Date(timeIntervalSince1970: 1_700_000_000))
  }

  private func stored(_ id: SessionID, in persistence: PostgresSessionPersistence) async throws -> SessionSnapshot? {
    try await leases(persistence).durableSnapshot(id)
  }

  private func leases(_ persistence: PostgresSessionPersistence) -> SessionLeases {
    SessionLeases(pool: persistence.pool, processID: persistence.processID, leaseDuration: persistence.leaseDuration)
  }
}
