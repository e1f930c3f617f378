import ComposableArchitecture
import Foundation
import HTTP
import Synchronization
import Testing

@testable import StoreHost

private struct DiskFull: Error, CustomStringConvertible {
  var description: String { "No space left on device" }
}

/// Sessions in memory, on a disk the test fills and frees: while full, every write throws.
private final class FillableDisk: SessionPersistence {
  private let stored = InMemorySessionPersistence()
  private let full = Atomic(false)
  private let failedWrites = Atomic(0)

  var isFull: Bool {
    get { full.load(ordering: .sequentiallyConsistent) }
    set { full.store(newValue, ordering: .sequentiallyConsistent) }
  }

  /// Writes refused so far.
  var refusals: Int { failedWrites.load(ordering: .sequentiallyConsistent) }

  private func write<T>(_ body: () async throws -> T) async throws -> T {
    guard !isFull else {
      failedWrites.add(1, ordering: .sequentiallyConsistent)
      throw DiskFull()
    }
    return try await body()
  }

  func save(_ save: SessionSave) async throws { try await write { try await stored.save(save) } }
  func reserve(_ reservations: [SessionReservation]) async throws {
    try await write { try await stored.reserve(reservations) }
  }
  func delete(_ id: SessionID) async throws { try await write { try await stored.delete(id) } }
  func probe() async throws { try await write {} }
  func loadAll() async throws -> [SessionSnapshot] { try await stored.loadAll() }
  func load(_ id: SessionID) async throws -> SessionSnapshot? { try await stored.load(id) }
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  {
    try await stored.sessions(lastActiveIn: range, savedThroughStateVersion: stateVersion, limit: limit)
  }
  func forgetAnswers(answeredBefore date: Date) async throws {}
  func flush() async throws {}
  func close() async throws {}
}

private let signer = try! SessionTokenSigner(secret: Array(repeating: 9, count: 32))

/// The changes of storage health a host told.
private final class ToldChanges: Sendable {
  let changes = Mutex<[StorageHealth.Change]>([])
}

private func host(
  _ disk: FillableDisk, _ durability: Durability, told: ToldChanges? = nil
) -> SessionHost<Tally.State, Tally.Action> {
  var configuration = SessionHostConfiguration()
  configuration.durability = durability
  configuration.onStorageHealthChange = { change in told?.changes.withLock { $0.append(change) } }
  return SessionHost(
    configuration: configuration, persistence: disk, tokenSigner: signer, initialState: Tally.State(),
    reducer: { Tally() })
}

/// `method path` on `host`'s routes, with a session's token when given: status and error code.
private func request(
  _ host: SessionHost<Tally.State, Tally.Action>, _ method: String, _ path: String, token: String? = nil,
  body: String? = nil
) async -> (status: Int, code: String?, body: [UInt8]) {
  var router = Router()
  host.addRoutes(to: &router)
  var headers: HTTPHeaders = [:]
  if let token { headers.set("Authorization", "Bearer \(token)") }
  if body != nil { headers.set("Content-Type", "application/json") }
  let response = await router.respond(
    to: Request(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
  guard case .bytes(let bytes) = response.body else { return (response.status, nil, []) }
  let code = (try? JSONValue(parsing: bytes))?["error"]?["code"].flatMap { value -> String? in
    if case .string(let code) = value { code } else { nil }
  }
  return (response.status, code, bytes)
}

private func add(_ host: SessionHost<Tally.State, Tally.Action>, to id: SessionID) async -> (status: Int, code: String?) {
  let answer = await request(
    host, "POST", "/api/sessions/\(id)/actions", token: signer.issue(sessionID: id), body: #""add""#)
  return (answer.status, answer.code)
}

/// What a host answers while its storage refuses writes: an error means nothing was
/// applied, fast mode stops acknowledging once its window is over, readiness follows the
/// storage, and the moments it fails and recovers are told once each.
@Suite struct StorageFailureTests {
  @Test func strictModeUndoesAChangeItCouldNotSaveAndAnswersThatNothingWasApplied() async throws {
    let disk = FillableDisk()
    let host = host(disk, .strict)
    let id = try await host.createSession().id
    #expect(await add(host, to: id) == (202, nil))

    disk.isFull = true
    #expect(await add(host, to: id) == (503, "storage_unavailable"))
    #expect(await request(host, "GET", "/readyz").status == 503)
    disk.isFull = false
    let state = await request(host, "GET", "/api/sessions/\(id)", token: signer.issue(sessionID: id))
    #expect(try JSONValue(parsing: state.body)["state"]?["count"] == .int(1))
    #expect(await add(host, to: id) == (202, nil))
    #expect(await request(host, "GET", "/readyz").status == 200)
  }

  @Test func fastModeAcknowledgesWithinItsWindowThenRefusesUntilAWriteWorks() async throws {
    let disk = FillableDisk()
    let told = ToldChanges()
    let host = host(disk, .fast, told: told)
    host.startEvictingIdleSessions()
    defer { Task { await host.shutdown() } }
    let id = try await host.createSession().id

    disk.isFull = true
    #expect(await add(host, to: id) == (202, nil))
    try await waitUntil { host.storageHealth.isFailing }
    #expect(await request(host, "GET", "/readyz").status == 503)
    try await waitUntil(timeout: .seconds(10)) {
      (host.storageHealth.failingDuration() ?? .zero) > StorageHealth.fastWindow
    }
    #expect(await add(host, to: id) == (503, "storage_unavailable"))
    #expect(await request(host, "POST", "/api/sessions").code == "storage_unavailable")

    // The probe finds the disk writable again without any request.
    disk.isFull = false
    try await waitUntil(timeout: .seconds(10)) { !host.storageHealth.isFailing }
    #expect(await request(host, "GET", "/readyz").status == 200)
    #expect(await add(host, to: id) == (202, nil))
    try await host.session(id)?.flush()
    #expect(try await disk.load(id)?.state == Data(#"{"count":2}"#.utf8))
    let changes = told.changes.withLock { $0 }
    #expect(changes.count == 2)
    #expect(changes.first == .failing(cause: "No space left on device"))
    if case .recovered(_, let failedWrites)? = changes.last { #expect(failedWrites >= 1) } else { Issue.record("no recovery told") }
  }

  @Test func aNewSessionIsStoredBeforeItsAnswerInFastMode() async throws {
    let disk = FillableDisk()
    let host = host(disk, .fast)
    let created = await request(host, "POST", "/api/sessions")
    #expect(created.status == 201)
    let id = try #require(try JSONValue(parsing: created.body)["id"].flatMap { value -> SessionID? in
      if case .string(let id) = value { SessionID(id) } else { nil }
    })
    #expect(try await disk.load(id) != nil)

    disk.isFull = true
    let refused = await request(host, "POST", "/api/sessions")
    #expect(refused.status == 503 && refused.code == "storage_unavailable")
    #expect(host.sessionCount == 1)
  }

  @Test func aSaveRetriedAfterAFailureDoesNotBringAnEndedSessionBack() async throws {
    let disk = FillableDisk()
    let host = host(disk, .fast)
    let session = try await host.createSession()
    disk.isFull = true
    session.store.send(.add)
    try await waitUntil { disk.refusals > 0 }
    // The failed save is retried shortly; the session ends first.
    disk.isFull = false
    await host.end(session)
    #expect(try await disk.load(session.id) == nil)
    try await Task.sleep(for: .milliseconds(500))
    #expect(try await disk.load(session.id) == nil, "a retried save stored an ended session again")
  }

  @Test func aSessionWhoseStateCannotBeSavedDoesNotRest() async throws {
    let disk = FillableDisk()
    let host = host(disk, .fast)
    let session = try await host.createSession()
    disk.isFull = true
    session.store.send(.add)
    await host.rest(session)
    #expect(host.session(session.id) === session, "a session left memory with a change not stored")
    disk.isFull = false
    await host.rest(session)
    #expect(host.sessionCount == 0)
    #expect(try await disk.load(session.id)?.state == Data(#"{"count":1}"#.utf8))
  }
}
