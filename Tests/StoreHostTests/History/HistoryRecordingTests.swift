@_spi(Hosting) import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

@Suite struct HistoryRecordingTests {
  @Test func eachSendIsOneStepWithItsActionsWhoSentThemAndThePatchTheyMade() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let session = try await host.createSession()
    session.store.send(.increment)
    session.store.send(.incrementTwice)
    session.store.send(.nothing)
    let steps = try await historySteps(of: session, in: host)
    #expect(steps.map { $0["kind"] } == ["created", "actions", "actions", "actions"])
    #expect(steps.map { $0["version"] } == [0, 1, 2, 2])
    #expect(steps[1]["actions"]?[0]?["source"] == "client")
    #expect(steps[1]["actions"]?[0]?["action"] == "increment")
    #expect(steps[1]["patch"] == [["op": "replace", "path": "/count", "value": 1]])
    // An action and the one it returned with `.send` made one version together.
    #expect(steps[2]["actions"] == [
      ["source": "client", "time": steps[2]["actions"]![0]!["time"]!, "action": "incrementTwice"],
      ["source": "effect", "time": steps[2]["actions"]![1]!["time"]!, "action": "increment"],
    ])
    #expect(steps[2]["patch"] == [["op": "replace", "path": "/count", "value": 3]])
    // An action that changed nothing is kept, at the same version, with an empty patch.
    #expect(steps[3]["actions"]?[0]?["action"] == "nothing")
    #expect(steps[3]["patch"] == [])
  }

  @Test func theUUIDsAndDatesTheReducerDrawsAreKeptWithTheActionButNotThoseOfEffects() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let session = try await host.createSession()
    session.store.send(.add("milk"))
    await session.store.send(.fetch).finish()
    let steps = try await historySteps(of: session, in: host)
    let entry = try #require(session.store.snapshot.state.entries.first)
    #expect(steps[1]["actions"]?[0]?["uuids"] == [.string(entry.id.uuidString)])
    #expect(steps[1]["actions"]?[0]?["dates"] == [.double(entry.at.timeIntervalSinceReferenceDate)])
    // `fetch` changed nothing; its effect drew a UUID for itself, before sending it back:
    // not part of any action.
    #expect(steps[2]["patch"] == [] && steps[2]["actions"]?[0]?["uuids"] == nil)
    let fetched = steps[3]["actions"]?[0]
    #expect(fetched?["source"] == "effect")
    #expect(fetched?["action"] == ["fetched": .string(session.store.snapshot.state.fetched)])
    #expect(fetched?["uuids"] == nil)
    #expect(steps.count == 4)
  }

  @Test func aRefusedChangeLeavesNoStepAndAChangeMadeElsewhereIsAStepWithoutActions() async throws {
    let host = journalHost(InMemorySessionPersistence(), maxStateBytes: 400)
    let session = try await host.createSession()
    #expect(session.store.send(.add(String(repeating: "x", count: 500))).isRefused)
    #expect(try await historySteps(of: session, in: host).count == 1)
    // Another store of the session changes the count they share.
    let visitors = withDependencies {
      $0.context = .live
      $0.sessionID = session.id.rawValue
    } operation: {
      Shared(wrappedValue: 0, .inMemory("visitors", scope: .session))
    }
    let before = session.version
    visitors.withLock { $0 += 1 }
    let steps = try await historySteps(of: session, in: host)
    #expect(steps.count == 2)
    #expect(steps[1]["kind"] == "shared")
    #expect(steps[1]["version"] == .int(Int64(before + 1)))
    #expect(steps[1]["actions"] == [])
    #expect(steps[1]["patch"] == [["op": "replace", "path": "/visitors", "value": .int(Int64(visitors.wrappedValue))]])
  }

  @Test func aHostWithoutHistoryKeepsNoneAndItsRoutesSaySo() async throws {
    let host = journalHost(InMemorySessionPersistence(), history: 0)
    let session = try await host.createSession()
    session.store.send(.increment)
    #expect(session.history == nil)
    let token = host.tokenSigner.issue(sessionID: session.id)
    let answer = await request(host, "GET", "/api/sessions/\(session.id)/history", token: token)
    #expect(answer.status == 404)
    #expect(try JSONValue(parsing: answer.body)["error"]?["code"] == "history_off")
  }
}
