import Foundation
import Testing

@testable import StoreHost

@Suite struct InMemorySessionPersistenceTests {
  @Test func keepsTheLatestVersionAndTheFirstCreationTime() async throws {
    let persistence = InMemorySessionPersistence()
    let id = SessionID.random()
    try await persistence.save(snapshot(id, version: 2, created: 1_000))
    try await persistence.save(snapshot(id, version: 1, created: 2_000))
    try await persistence.save(snapshot(id, version: 3, created: 3_000))
    let loaded = try await persistence.loadAll()
    #expect(loaded.map(\.version) == [3])
    #expect(loaded.first?.createdAt == Date(timeIntervalSince1970: 1_000))
  }

  @Test func deletesAndCloses() async throws {
    let persistence = InMemorySessionPersistence()
    let id = SessionID.random()
    try await persistence.save(snapshot(id, version: 1))
    try await persistence.delete(id)
    #expect(try await persistence.loadAll().isEmpty)
    try await persistence.close()
    await #expect(throws: SessionPersistenceError.closed) { try await persistence.flush() }
  }
}
