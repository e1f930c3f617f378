import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

/// The most a score may count when it is read, as the app's dependencies say.
private enum ScoreLimitKey: DependencyKey {
  static let liveValue = 10
}

extension DependencyValues {
  fileprivate var scoreLimit: Int {
    get { self[ScoreLimitKey.self] }
    set { self[ScoreLimitKey.self] = newValue }
  }
}

/// A state whose decoding reads a dependency, as a state holding a client's value would.
private struct LimitedCount: Codable, Equatable, Sendable {
  var count: Int

  init(from decoder: any Decoder) throws {
    @Dependency(\.scoreLimit) var limit
    let container = try decoder.container(keyedBy: CodingKeys.self)
    count = try container.decode(Int.self, forKey: .count)
    guard count <= limit else {
      throw DecodingError.dataCorruptedError(forKey: .count, in: container, debugDescription: "over \(limit)")
    }
  }

  init(count: Int) { self.count = count }
}

private func saved(_ json: String, stateVersion: Int = 0) -> SessionSnapshot {
  SessionSnapshot(
    id: SessionID.random(), version: 3, state: Data(json.utf8), stateVersion: stateVersion, createdAt: Date(),
    lastActiveAt: Date())
}

@Suite struct SessionsCheckTests {
  @Test func everySessionIsReadAsAStartWouldAndTheUnreadableAreGroupedByCause() throws {
    let good = saved(#"{"counter":{"count":2},"label":"a"}"#)
    let wrongType = [saved(#"{"counter":{"count":"two"}}"#), saved(#"{"counter":{"count":"three"}}"#)]
    let notJSON = saved("not json")
    let newer = saved(#"{"counter":{"count":2},"label":"a"}"#, stateVersion: 5)
    let sessions = SavedSessionsInMemory([good, notJSON, newer] + wrongType)

    let report = try SessionsCheck(initialState: Score.State()).run(sessions)

    #expect(report.readable == 1)
    #expect(report.unreadableCount == 4)
    #expect(Set(report.unreadable.map(\.id)) == Set(([notJSON, newer] + wrongType).map(\.id)))
    #expect(report.causes.first?.count == 2)
    #expect(report.causes.first?.reason.hasPrefix("counter.count:") == true, "\(report.causes)")
    #expect(report.causes.count == 3)
    let newerReason = report.unreadable.first { $0.id == newer.id }?.reason ?? ""
    #expect(newerReason.contains("newer build"), "\(newerReason)")
  }

  @Test func statesAreDecodedWithTheAppsDependencies() throws {
    let sessions = SavedSessionsInMemory([saved(#"{"count":50}"#), saved(#"{"count":5}"#)])
    let withDefaults = try SessionsCheck(initialState: LimitedCount(count: 0)).run(sessions)
    #expect(withDefaults.readable == 1 && withDefaults.unreadableCount == 1)
    let withApps = try SessionsCheck(initialState: LimitedCount(count: 0)) { $0.scoreLimit = 100 }.run(sessions)
    #expect(withApps.readable == 2 && withApps.unreadableCount == 0)
  }

  @Test func aSQLiteFileIsReadInPagesNoLargerThanThePageSize() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let persistence = try await database.open()
    let count = 2_500
    for index in 0..<count { try await persistence.save(snapshot(SessionID.random(), version: index)) }
    try await persistence.close()

    let sessions = PageCountingSessions(try SQLiteSavedSessions(path: database.path))
    let report = try SessionsCheck(initialState: ScoreCounter.State(), pageSize: 100).run(sessions)

    #expect(report.readable == count && report.unreadableCount == 0)
    #expect(sessions.limits.allSatisfy { $0 == 100 })
    #expect(sessions.pageSizes.max() == 100)
    #expect(sessions.pageSizes.count == count / 100 + 1, "full pages, then the empty one that ends it")
    #expect(sessions.pageSizes.reduce(0, +) == count, "no session read twice")
  }

  @Test func aCheckPastItsDeadlineStopsAndSaysSo() throws {
    let sessions = SavedSessionsInMemory((0..<10).map { _ in saved(#"{"count":1}"#) })
    let report = try SessionsCheck(initialState: ScoreCounter.State(), pageSize: 2).run(sessions, until: .now)
    #expect(report.timedOut)
    #expect(report.total < 10)
  }
}
