import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

/// Which stored sessions idle expiry deletes: those this build saved or can read, never
/// those a newer build saved (a rollback longer than the idle timeout keeps them).
@Suite struct SessionExpiryTests {
  private func host(_ persistence: InMemorySessionPersistence) throws -> SessionHost<Tally.State, Tally.Action> {
    var configuration = SessionHostConfiguration()
    configuration.limits.idleTimeout = .seconds(60)
    return SessionHost(
      configuration: configuration, persistence: persistence,
      tokenSigner: try SessionTokenSigner(secret: Array(repeating: 3, count: 32)), initialState: Tally.State(),
      reducer: { Tally() })
  }

  private func stored(stateVersion: Int, idleFor seconds: TimeInterval) -> SessionSnapshot {
    let lastActive = Date().addingTimeInterval(-seconds)
    return SessionSnapshot(
      id: .random(), version: 3, state: Data(#"{"count":3}"#.utf8), stateVersion: stateVersion,
      createdAt: lastActive, lastActiveAt: lastActive)
  }

  @Test func anExpiredSessionOfANewerBuildIsKeptAndOneOfThisBuildIsDeleted() async throws {
    let persistence = InMemorySessionPersistence()
    let ours = stored(stateVersion: 0, idleFor: 120)
    let newer = stored(stateVersion: 1, idleFor: 120)
    let recent = stored(stateVersion: 0, idleFor: 10)
    for snapshot in [ours, newer, recent] { try await persistence.save(snapshot) }
    let host = try host(persistence)

    await host.endExpiredRestingSessions()
    #expect(try await persistence.load(ours.id) == nil)
    #expect(try await persistence.load(newer.id) == newer)
    #expect(try await persistence.load(recent.id) != nil)
  }

  @Test func aRequestForAnExpiredSessionOfANewerBuildDoesNotDeleteIt() async throws {
    let persistence = InMemorySessionPersistence()
    let newer = stored(stateVersion: 1, idleFor: 120)
    try await persistence.save(newer)
    let host = try host(persistence)

    await #expect(throws: HTTPError.self) { try await host.liveSession(newer.id) }
    #expect(try await persistence.load(newer.id) == newer)
  }
}
