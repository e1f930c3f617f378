import Foundation
import Synchronization

@testable import StoreHost

/// The versions saved, per session, and how often storage was swept, passed on to memory.
final class RecordingPersistence: SessionPersistence {
  let stored = InMemorySessionPersistence()
  let saved = Mutex<[SessionID: [Int]]>([:])
  /// Calls to ``sessions(lastActiveIn:savedThroughStateVersion:limit:)`` (looking for expired
  /// stored sessions) and to ``forgetAnswers(answeredBefore:)``.
  let sweeps = Mutex((expiredSessionQueries: 0, answerDeletions: 0))

  func loadAll() async throws -> [SessionSnapshot] { try await stored.loadAll() }
  func load(_ id: SessionID) async throws -> SessionSnapshot? { try await stored.load(id) }
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  {
    sweeps.withLock { $0.expiredSessionQueries += 1 }
    return try await stored.sessions(lastActiveIn: range, savedThroughStateVersion: stateVersion, limit: limit)
  }
  func save(_ save: SessionSave) async throws {
    saved.withLock { $0[save.id, default: []].append(save.version) }
    try await stored.save(save)
  }
  func reserve(_ reservations: [SessionReservation]) async throws { try await stored.reserve(reservations) }
  func delete(_ id: SessionID) async throws { try await stored.delete(id) }
  func forgetAnswers(answeredBefore date: Date) async throws {
    sweeps.withLock { $0.answerDeletions += 1 }
    try await stored.forgetAnswers(answeredBefore: date)
  }
  func flush() async throws { try await stored.flush() }
  func close() async throws { try await stored.close() }

  func versions(_ id: SessionID) -> [Int] { saved.withLock { $0[id] ?? [] } }
}
