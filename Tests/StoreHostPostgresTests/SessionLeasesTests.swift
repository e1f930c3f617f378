import Foundation
import StoreHost
import Testing

@testable import StoreHostPostgres

/// Epochs on a real PostgreSQL: every change of hands moves a session's epoch on, and a save
/// made under an earlier epoch is refused, even by the process that owns the session again.
/// Runs when `STOREHOST_TEST_DATABASE` names a database (Tests/Integration/cluster_postgres.sh
/// sets it); skipped otherwise.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] != nil))
struct SessionLeasesTests {
  private let url = ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] ?? ""

  @Test func aSaveUnderAnEarlierEpochIsRefusedEvenByItsOwner() async throws {
    let a = try await open("a")
    let leases = try await registered(a)
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0, epoch: 1))
    // The same process takes its own session again (a new instance of it): the epoch moves on.
    guard case (.acquired(let taken), _) = try await leases.acquire(id, stateVersion: 0, reservationWindow: 0) else {
      Issue.record("a owns the session, so it takes it again")
      return
    }
    #expect(taken.epoch == 2)
    await #expect(throws: SessionOwnershipLost.self) { try await a.save(snapshot(id, version: 1, epoch: 1)) }
    try await a.save(snapshot(id, version: 1, epoch: 2))
    #expect(try await leases.durableSnapshot(id)?.version == 1)
    try await a.close()
  }

  @Test func aHandoverMovesTheEpochInTheSameStatement() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    let (aLeases, bLeases) = (try await registered(a), try await registered(b))
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0, epoch: 1))
    try await aLeases.move(id, epoch: 1, to: b.processID)
    await #expect(throws: SessionOwnershipLost.self) { try await a.save(snapshot(id, version: 1, epoch: 1)) }
    // Moving again from the same epoch does nothing: it moved on already.
    try await aLeases.move(id, epoch: 1, to: nil)
    guard case (.acquired(let taken), _) = try await bLeases.acquire(id, stateVersion: 0, reservationWindow: 0) else {
      Issue.record("the session was handed to b")
      return
    }
    #expect(taken.epoch == 3 && taken.version == 0)
    try await a.close()
    try await b.close()
  }

  @Test func aCheckSeesATakeoverTheLiveOwnerDidNotAllow() async throws {
    let (a, b) = (try await open("a"), try await open("b"))
    let (aLeases, bLeases) = (try await registered(a), try await registered(b))
    let id = SessionID.random()
    try await a.save(snapshot(id, version: 0, epoch: 1))
    #expect(try await aLeases.verify(id, epoch: 1).owned)
    // `a`'s heartbeat is fresh and `b` cannot know it lost its lock: no takeover.
    guard case (.ownedElsewhere(let owner, _), _) = try await bLeases.acquire(id, stateVersion: 0, reservationWindow: 0)
    else {
      Issue.record("a's session was taken although its heartbeat is fresh")
      return
    }
    #expect(owner == a.processID)
    try await aLeases.move(id, epoch: 1, to: nil)
    #expect(try await !aLeases.verify(id, epoch: 1).owned)
    try await a.close()
    try await b.close()
  }

  private func open(_ name: String) async throws -> PostgresSessionPersistence {
    try await PostgresSessionPersistence.open(
      url: url, processID: "test-\(name)-\(UUID().uuidString)", durability: .strict)
  }

  /// The leases of `persistence`'s process, registered with a fresh heartbeat; the test
  /// holds no liveness lock, so only the heartbeat says whether it is alive.
  private func registered(_ persistence: PostgresSessionPersistence) async throws -> SessionLeases {
    let leases = SessionLeases(
      pool: persistence.pool, processID: persistence.processID, leaseDuration: persistence.leaseDuration)
    try await leases.register(address: "http://127.0.0.1:1")
    try await persistence.pool.run { [id = persistence.processID] connection in
      try connection.execute("UPDATE storehost_processes SET holds_lock = false WHERE id = $1", [id])
    }
    return leases
  }

  private func snapshot(_ id: SessionID, version: Int, epoch: Int) -> SessionSnapshot {
    SessionSnapshot(
      id: id, version: version, state: Data(#"{"count":\#(version)}"#.utf8),
      createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastActiveAt: Date(timeIntervalSince1970: 1_700_000_000),
      epoch: epoch)
  }
}
