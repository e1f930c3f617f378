import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

/// The deploy gate run by a next build of ``Score`` on what the running build saved.
@Suite struct DeployCheckTests {
  @Test func aBuildThatAddsAFieldWithADefaultPasses() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let ids = try await saveScores(3, in: database)

    let report = try DeployCheck(initialState: ScoreWithNote.State()) { ScoreWithNote() }
      .run(SQLiteSavedSessions(path: database.path))

    #expect(report.passed, "\(report)")
    #expect(report.sessions.readable == ids.count)
    #expect(report.replay.replayed == ids.count)
    #expect(report.replay.actions == 3 * ids.count)
    #expect(report.replay.differences.isEmpty)
  }

  @Test func aBuildThatChangesWhatAnActionDoesFailsNamingItUnlessAllowed() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let ids = try await saveScores(3, in: database)
    let check = DeployCheck(initialState: Score.State()) { Score(step: 2) }

    let report = try check.run(SQLiteSavedSessions(path: database.path))

    #expect(!report.passed)
    let difference = try #require(report.replay.differences.first)
    #expect(report.replay.differences.count == 1, "only the changed action differs: \(report)")
    #expect(difference.action == "counter.incrementButtonTapped")
    #expect(difference.field == "counter.count")
    #expect(difference.steps == 2 * ids.count, "each increment, replayed from the recorded state before it")
    #expect(difference.sessions == ids.count)
    #expect(ids.contains(difference.exampleSession))
    #expect(!difference.allowed)
    #expect(report.description.contains("DIFFERS: counter.incrementButtonTapped"))

    var options = DeployCheck<Score.State, Score.Action>.Options()
    options.allowedActions = ["counter.incrementButtonTapped"]
    let allowed = try check.run(SQLiteSavedSessions(path: database.path), options: options)
    #expect(allowed.passed, "\(allowed)")
    #expect(allowed.replay.differences.map(\.allowed) == [true])
  }

  @Test func aBuildThatCannotReadTheSavedSessionsFailsListingThemAndChangesNothing() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let ids = try await saveScores(4, in: database)
    let before = try Data(contentsOf: URL(fileURLWithPath: database.path))

    let report = try DeployCheck(initialState: ScoreRenamed.State(title: "")) { ScoreRenamed() }
      .run(SQLiteSavedSessions(path: database.path))

    #expect(!report.passed)
    #expect(report.sessions.unreadableCount == ids.count)
    #expect(Set(report.sessions.unreadable.map(\.id)) == Set(ids))
    #expect(report.sessions.causes.map(\.count) == [ids.count])
    #expect(report.sessions.causes.first?.reason.contains("'title'") == true, "\(report.sessions.causes)")
    #expect(report.replay.notReplayed.sessionsWithUnreadableHistory == ids.count)
    #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == before)
  }

  @Test func onlyTheMostRecentlyActiveSessionsAreReplayed() async throws {
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let ids = try await saveScores(5, in: database)
    var options = DeployCheck<Score.State, Score.Action>.Options()
    options.sample = 2

    let report = try DeployCheck(initialState: Score.State()) { Score(step: 2) }
      .run(SQLiteSavedSessions(path: database.path), options: options)

    #expect(report.replay.sampled == 2 && report.replay.replayed == 2)
    #expect(report.sessions.readable == ids.count)
    let example = try #require(report.replay.differences.first?.exampleSession)
    #expect(ids.suffix(2).contains(example))
  }

  @Test func sessionsWithoutHistoryAreCountedAndACheckOutOfTimeFails() throws {
    let sessions = SavedSessionsInMemory(
      (0..<3).map { _ in
        SessionSnapshot(
          id: .random(), version: 1, state: Data(#"{"label":"x"}"#.utf8), createdAt: Date(), lastActiveAt: Date())
      })
    let check = DeployCheck(initialState: Score.State()) { Score() }
    let report = try check.run(sessions)
    #expect(report.passed)
    #expect(report.replay.notReplayed.sessionsWithoutHistory == 3)

    var options = DeployCheck<Score.State, Score.Action>.Options()
    options.timeout = .zero
    let late = try check.run(sessions, options: options)
    #expect(late.timedOut && !late.passed)
  }

  @Test func theJSONReportSaysWhetherItPassed() throws {
    let report = try DeployCheck(initialState: Score.State()) { Score() }.run(SavedSessionsInMemory([]))
    let json = try JSONValue(parsing: Array(JSONEncoder().encode(report)))
    #expect(json["passed"] == true)
    #expect(json["sessions"]?["readable"] == 0)
  }
}
