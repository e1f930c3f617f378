import ComposableArchitecture
import HTTP
import Foundation
import Synchronization
import Testing

@testable import StoreHost

/// A note as a first build writes it...
@Reducer
struct NoteV0 {
  struct State: Equatable, Codable, Sendable {
    var text = ""
  }

  enum Action: Equatable, Sendable {
    case write(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case let .write(text) = action else { return .none }
      state.text = text
      return .none
    }
  }
}

/// ...and as the next build writes it: `text` renamed `body`, with a migration.
@Reducer
struct NoteV1 {
  struct State: Equatable, Codable, Sendable, MigratableState {
    var body = ""

    static var stateVersion: Int { 1 }

    static func migrate(_ json: inout JSONValue, from version: Int) throws {
      if version == 0 { json.renameMember("text", to: "body") }
    }
  }

  enum Action: Equatable, Sendable {
    case write(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case let .write(text) = action else { return .none }
      state.body = text
      return .none
    }
  }
}

private let signer = try! SessionTokenSigner(secret: Array(repeating: 9, count: 32))

private func hostV0(_ persistence: some SessionPersistence, _ durability: Durability = .fast)
  -> SessionHost<NoteV0.State, NoteV0.Action>
{
  var configuration = SessionHostConfiguration()
  configuration.durability = durability
  return SessionHost(
    configuration: configuration, persistence: persistence, tokenSigner: signer, initialState: NoteV0.State(),
    reducer: { NoteV0() })
}

private func hostV1(_ persistence: some SessionPersistence) -> SessionHost<NoteV1.State, NoteV1.Action> {
  SessionHost(persistence: persistence, tokenSigner: signer, initialState: NoteV1.State(), reducer: { NoteV1() })
}

private func saved(_ state: String, stateVersion: Int = 0, version: Int = 3) -> SessionSnapshot {
  SessionSnapshot(
    id: SessionID.random(), version: version, state: Data(state.utf8), stateVersion: stateVersion,
    createdAt: Date(), lastActiveAt: Date())
}

@Suite struct SessionEvolutionTests {
  @Test func aStateThatDoesNotDecodeIsSetAsideWithItsReasonAndKept() async throws {
    let persistence = InMemorySessionPersistence()
    let notJSON = saved("not json")
    let wrongShape = saved("[1, 2]")
    let wrongType = saved(#"{"text": 5}"#)
    let good = saved(#"{"text": "kept"}"#)
    for snapshot in [notJSON, wrongShape, wrongType, good] { try await persistence.save(snapshot) }

    let reported = Mutex<[UnreadableSession]>([])
    var configuration = SessionHostConfiguration()
    configuration.onUnreadableSession = { session in reported.withLock { $0.append(session) } }
    let host = SessionHost(
      configuration: configuration, persistence: persistence, tokenSigner: signer, initialState: NoteV0.State(),
      reducer: { NoteV0() })
    #expect(try await host.liveSession(good.id).store.snapshot.state.text == "kept")
    for snapshot in [notJSON, wrongShape, wrongType] {
      await #expect(throws: HTTPError.sessionUnreadable()) { try await host.liveSession(snapshot.id) }
    }
    let reasons = Dictionary(uniqueKeysWithValues: reported.withLock { $0 }.map { ($0.id, $0.reason) })
    #expect(Set(reasons.keys) == [notJSON.id, wrongShape.id, wrongType.id])
    #expect(reasons[wrongType.id]?.hasPrefix("text:") == true, "the reason names the field: \(reasons[wrongType.id] ?? "")")
    #expect(reasons[notJSON.id]?.contains("not valid JSON") == true)
    // Not served, and not deleted: every row is still stored, unchanged.
    #expect(host.unreadable.withLock { $0.count } == 3)
    let stored = Dictionary(uniqueKeysWithValues: try await persistence.loadAll().map { ($0.id, $0.state) })
    #expect(stored.count == 4)
    #expect(stored[wrongType.id] == wrongType.state)
    // The check reads as bringing back does, without changing anything.
    #expect(try SessionsCheck(initialState: NoteV0.State()).run(SavedSessionsInMemory([notJSON, good])).unreadable.map(\.id) == [notJSON.id])
  }

  @Test func aMigrationCarriesStatesOverAndARollbackSetsThemAsideUntilRolledForward() async throws {
    let persistence = InMemorySessionPersistence()
    let first = hostV0(persistence)
    let session = try await first.createSession()
    session.store.send(.write("hello"))
    await finishAll(first)

    // The next build reads it through its migration.
    let second = hostV1(persistence)
    let migrated = try await second.liveSession(session.id)
    #expect(migrated.store.snapshot.state.body == "hello")
    migrated.store.send(.write("hello again"))
    await finishAll(second)

    // Rolled back, the first build cannot read what the second wrote: kept, not served.
    let rollback = hostV0(persistence)
    await #expect(throws: HTTPError.sessionUnreadable()) { try await rollback.liveSession(session.id) }
    let setAside = try #require(rollback.unreadable.withLock { $0[session.id] })
    #expect(setAside.stateVersion == 1)
    #expect(setAside.reason.contains("newer build"))

    // Rolled forward again, it is all there.
    let forward = hostV1(persistence)
    #expect(try await forward.liveSession(session.id).store.snapshot.state.body == "hello again")
  }

  @Test func aSessionReadBackAfterACrashGoesOnPastEveryVersionItMayHaveShown() async throws {
    let persistence = InMemorySessionPersistence()
    // Saved at version 3, with versions up to 10,003 reserved for publishing: a crash may
    // have lost any of them after clients saw them.
    var crashed = saved(#"{"text": "a"}"#)
    crashed.reservedVersion = 10_003
    try await persistence.save(crashed)

    let host = hostV0(persistence)
    let session = try await host.liveSession(crashed.id)
    #expect(session.version == 10_004)
    #expect(session.events.latest.version == 10_004)
    // New versions are reserved in storage before any is shown.
    session.store.send(.write("b"))
    try await session.waitUntilPublishable(10_005)
    let stored = try #require(try await persistence.load(crashed.id))
    #expect(stored.reservedVersion >= 10_005)

    // A rest saves the final version with nothing reserved past it: the next time it is
    // brought back, it goes on from exactly there.
    await host.rest(session)
    #expect(host.session(crashed.id) == nil)
    let final = try #require(try await persistence.load(crashed.id))
    #expect(final.version == 10_005 && final.reservedVersion == 10_005)
    #expect(try await host.liveSession(crashed.id).version == 10_005)
  }

  @Test func strictSessionsPublishOnlyDurableVersions() async throws {
    let persistence = ManualPersistence()
    let host = hostV0(persistence, .strict)
    let session = try await created(in: host, committing: persistence)
    session.store.send(.write("x"))
    // Applied, but not durable yet: clients still see version 0.
    #expect(session.version == 1)
    #expect(session.events.latest.version == 0)
    #expect(try session.currentJSON().version == 0)
    #expect(persistence.pendingVersions == [1])
    persistence.commitAll()
    try await session.waitUntilPublishable(1)
    #expect(session.events.latest.version == 1)
  }

  @Test func aKeyedRequestsAnswerIsWrittenWithTheStateItReports() async throws {
    let persistence = ManualPersistence()
    let host = hostV0(persistence, .strict)
    let session = try await created(in: host, committing: persistence)

    session.holdSaves()
    session.store.send(.write("once"))
    #expect(persistence.pendingVersions.isEmpty, "no state is saved before its answer is recorded")
    let answer = RememberedAnswer(
      key: "k", bodyDigest: "d", status: 202, body: #"{"version":1}"#, version: 1, answeredAt: Date())
    session.updateIdempotency {
      _ = $0.admit("k", digest: "d", now: Date())
      $0.record("k", answer: answer)
    }
    session.releaseSaves()
    let written = persistence.commitAll()
    #expect(written.map(\.version) == [1])
    #expect(written.first?.answers == [answer])
  }
}

/// Ends every session of `host` as its shutdown does, saving each final state, but leaves
/// the persistence open for the test to read.
private func finishAll<State, Action>(_ host: SessionHost<State, Action>) async {
  for session in host.allSessions { try? await session.finish() }
}

/// A new session of a strict `host`, its first save committed.
private func created(
  in host: SessionHost<NoteV0.State, NoteV0.Action>, committing persistence: ManualPersistence
) async throws -> Session<NoteV0.State, NoteV0.Action> {
  async let session = host.createSession()
  while persistence.pendingVersions.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
  persistence.commitAll()
  return try await session
}

/// A persistence whose saves wait until the test commits them, recording what each wrote.
private final class ManualPersistence: SessionPersistence, @unchecked Sendable {
  private let lock = NSLock()
  private var pending: [(save: SessionSave, completion: @Sendable ((any Error)?) -> Void)] = []

  var pendingVersions: [Int] { lock.withLock { pending.map(\.save.version) } }

  /// Writes every pending save, as the writer would, and tells each it is durable.
  @discardableResult
  func commitAll() -> [SessionSnapshot] {
    let taken = lock.withLock {
      defer { pending = [] }
      return pending
    }
    let written = taken.map { try! $0.save.snapshot() }
    for save in taken { save.completion(nil) }
    return written
  }

  func loadAll() async throws -> [SessionSnapshot] { [] }
  func load(_ id: SessionID) async throws -> SessionSnapshot? { nil }
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  { [] }
  func save(_ save: SessionSave) async throws {}
  func save(_ save: SessionSave, completion: @escaping @Sendable ((any Error)?) -> Void) {
    lock.withLock { pending.append((save, completion)) }
  }
  func reserve(_ reservations: [SessionReservation]) async throws {}
  func delete(_ id: SessionID) async throws {}
  func forgetAnswers(answeredBefore date: Date) async throws {}
  func flush() async throws {}
  func close() async throws {}
}
