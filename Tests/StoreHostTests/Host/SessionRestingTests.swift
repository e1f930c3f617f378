import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

private func host(
  _ persistence: some SessionPersistence, maxSessions: Int = 100, restAfter: Duration = .seconds(60)
) throws -> SessionHost<Tally.State, Tally.Action> {
  var configuration = SessionHostConfiguration()
  configuration.limits.maxSessions = maxSessions
  configuration.limits.restAfter = restAfter
  return SessionHost(
    configuration: configuration, persistence: persistence,
    tokenSigner: try SessionTokenSigner(secret: Array(repeating: 5, count: 32)), initialState: Tally.State(),
    reducer: { Tally() })
}

@Suite struct SessionRestingTests {
  @Test func housekeepingRestsIdleSessionsOnEachPassAndSweepsStorageRarely() async throws {
    let persistence = RecordingPersistence()
    // A pass every 100 ms; storage swept every tenth of the answers' 10 minutes at most.
    let host = try host(persistence, restAfter: .milliseconds(300))
    host.startEvictingIdleSessions()
    defer { Task { await host.shutdown() } }
    let session = try await host.createSession()

    try await waitUntil { host.sessionCount == 0 }
    #expect(try await persistence.load(session.id) != nil)
    #expect(persistence.sweeps.withLock { $0 } == (0, 0), "passes that rest sessions leave storage alone")

    // Asked directly, a pass sweeps storage too.
    await host.evictIdleSessions()
    #expect(persistence.sweeps.withLock { $0.expiredSessionQueries } == 1)
  }

  @Test func anIdleSessionRestsAndComesBackAtItsVersionWithItsAnswers() async throws {
    let persistence = InMemorySessionPersistence()
    let host = try host(persistence)
    let session = try await host.createSession()
    session.store.send(.add)
    session.store.send(.add)
    let answer = RememberedAnswer(
      key: "k", bodyDigest: "d", status: 202, body: #"{"version":2}"#, version: 2, answeredAt: Date())
    session.updateIdempotency {
      _ = $0.admit("k", digest: "d", now: Date())
      $0.record("k", answer: answer)
      $0.finish("k")
    }

    // Not idle yet: nothing moves.
    await host.evictIdleSessions()
    #expect(host.session(session.id) === session)
    // Idle past the rest delay: saved, and out of memory.
    await host.evictIdleSessions(now: .now + .seconds(61))
    #expect(host.sessionCount == 0)
    #expect(try await persistence.load(session.id)?.version == 2)

    let back = try await host.liveSession(session.id)
    #expect(back !== session)
    #expect(back.version == 2)
    #expect(back.store.snapshot.state.count == 2)
    #expect(back.admitIdempotent("k", digest: "d") == .replay(answer))
  }

  @Test func concurrentRequestsForARestingSessionBringItBackOnce() async throws {
    let persistence = InMemorySessionPersistence()
    let host = try host(persistence)
    let id = try await host.createSession().id
    await host.evictIdleSessions(now: .now + .seconds(61))
    let brought = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<20 { group.addTask { ObjectIdentifier(try await host.liveSession(id)) } }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(brought.count == 1)
  }

  @Test func maxSessionsBoundsMemoryNotStorage() async throws {
    let persistence = InMemorySessionPersistence()
    let host = try host(persistence, maxSessions: 2, restAfter: .milliseconds(1))
    var ids: [SessionID] = []
    for _ in 0..<5 {
      ids.append(try await host.createSession().id)
      try await Task.sleep(for: .milliseconds(5))
    }
    // Five sessions, two in memory: the least recently used went to rest to make room.
    #expect(host.sessionCount == 2)
    #expect(try await persistence.loadAll().count == 5)
    #expect(host.session(ids[4]) != nil)
    // Every one of them is still served.
    for id in ids {
      _ = try await host.liveSession(id)
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(host.sessionCount == 2)
  }

  @Test func aSessionInUseIsNeverPutToRestToMakeRoom() async throws {
    let persistence = InMemorySessionPersistence()
    let host = try host(persistence, maxSessions: 1)
    let busy = try await host.createSession()
    busy.touch()
    await #expect(throws: HTTPError.atCapacity()) { try await host.createSession() }
    #expect(host.session(busy.id) === busy)
  }

  @Test func anEndedSessionIsNotBroughtBackFromItsRowBeforeTheDeletionCommits() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    // Fast saves, committed a second after they are queued unless someone waits.
    let persistence = try await database.open(.fast, batchDelay: .seconds(1))
    let host = try host(persistence)
    let session = try await host.createSession()
    session.store.send(.add)
    try await session.flush()
    await host.end(session)
    await #expect(throws: HTTPError.sessionNotFound()) { try await host.liveSession(session.id) }
    #expect(try await persistence.load(session.id) == nil)
    #expect(host.sessionCount == 0)
    await host.shutdown()
  }

  @Test func expiredSessionsEndInMemoryAndInStorage() async throws {
    let persistence = InMemorySessionPersistence()
    let host = try host(persistence)
    let resting = try await host.createSession().id
    await host.evictIdleSessions(now: .now + .seconds(61))
    // A session stored by an earlier run and unused for longer than the idle timeout.
    let old = Date().addingTimeInterval(-2 * 3600)
    let stale = SessionSnapshot(
      id: SessionID.random(), version: 1, state: Data(#"{"count":1}"#.utf8), createdAt: old, lastActiveAt: old)
    try await persistence.save(stale)
    await host.evictIdleSessions()
    #expect(try await persistence.load(stale.id) == nil)
    await #expect(throws: HTTPError.sessionNotFound()) { try await host.liveSession(stale.id) }
    #expect(try await persistence.load(resting) != nil)
  }
}
