import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

@Suite struct HistoryRouteTests {
  /// A session of `host` with a few steps: versions 1 to 5 and a step that changed nothing.
  private func session(of host: SessionHost<Journal.State, Journal.Action>) async throws -> (
    Session<Journal.State, Journal.Action>, String
  ) {
    let session = try await host.createSession()
    for action: Journal.Action in [.increment, .add("milk"), .nothing, .incrementTwice, .add("eggs \"# \\#( two"), .increment] {
      session.store.send(action)
    }
    return (session, host.tokenSigner.issue(sessionID: session.id))
  }

  @Test func theHistoryIsServedInPagesThatNeverSplitAVersion() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let path = "/api/sessions/\(session.id)/history"
    let all = try JSONValue(parsing: await request(host, "GET", path, token: token).body)
    #expect(all["capacity"] == 100 && all["first"] == 0 && all["last"] == 5 && all["next"] == .null)
    #expect(all["steps"]?.arrayCount == 7)
    // Versions 2 has two steps (an add, then nothing): a page of 2 from version 1 takes both.
    let page = try JSONValue(parsing: await request(host, "GET", path, query: "from=1&limit=2", token: token).body)
    #expect(page["steps"]?.versions == [1, 2, 2])
    #expect(page["next"] == 3)
    let rest = try JSONValue(parsing: await request(host, "GET", path, query: "from=3", token: token).body)
    #expect(rest["steps"]?.versions == [3, 4, 5])
    let bad = await request(host, "GET", path, query: "from=soon", token: token)
    #expect(bad.status == 400)
    #expect(try JSONValue(parsing: bad.body)["error"]?["code"] == "invalid_parameter")
    let stranger = await request(host, "GET", path, token: host.tokenSigner.issue(sessionID: SessionID.random()))
    #expect(stranger.status == 401)
  }

  @Test func theStateAtAVersionIsRebuiltFromTheKeptSteps() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let answer = try JSONValue(parsing: await request(host, "GET", "/api/sessions/\(session.id)/history/3", token: token).body)
    #expect(answer["version"] == 3)
    #expect(answer["state"]?["count"] == 3)
    #expect(answer["state"]?["entries"]?.arrayCount == 1)
    let current = try JSONValue(parsing: await request(host, "GET", "/api/sessions/\(session.id)/history/5", token: token).body)
    #expect(current["state"] == (try JSONValue(parsing: try session.currentJSON().json)))
    let missing = await request(host, "GET", "/api/sessions/\(session.id)/history/9", token: token)
    #expect(missing.status == 404)
    #expect(String(decoding: missing.body, as: UTF8.self).contains("it keeps versions 0 to 5"))
  }

  @Test func aForkIsANewSessionAtTheStateOfTheVersionAndTheSessionStaysAsItWas() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let version = session.version
    let answer = await request(host, "POST", "/api/sessions/\(session.id)/fork", token: token, body: #"{"version": 2}"#)
    #expect(answer.status == 201)
    #expect(answer.headers["Set-Cookie"]?.hasPrefix("storehost_token=") == true)
    let forked = try JSONValue(parsing: answer.body)
    let id = try #require(forked["id"]?.stringValue.flatMap(SessionID.init))
    let fork = try #require(host.session(id))
    #expect(fork.store.snapshot.state.count == 1)
    #expect(fork.store.snapshot.state.entries.map(\.text) == ["milk"])
    #expect(forked["version"] == 0)
    #expect(session.version == version)
    // The fork is a session of its own: it goes on, with its own history.
    fork.store.send(.increment)
    #expect(fork.store.snapshot.state.count == 2 && session.store.snapshot.state.count == 4)
    #expect(try await historySteps(of: fork, in: host).count == 2)
    let unknown = await request(host, "POST", "/api/sessions/\(session.id)/fork", token: token, body: #"{"version": 99}"#)
    #expect(unknown.status == 404)
    let malformed = await request(host, "POST", "/api/sessions/\(session.id)/fork", token: token, body: #"{"at": 2}"#)
    #expect(malformed.status == 400)
  }

  @Test func aReplayThroughTheSameBuildFindsNoDifference() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let answer = await request(host, "POST", "/api/sessions/\(session.id)/replay", token: token, body: "")
    #expect(answer.status == 201)
    let replay = try JSONValue(parsing: answer.body)
    #expect(replay["replay"]?["firstDifference"] == .null)
    #expect(replay["replay"]?["from"] == 0 && replay["replay"]?["to"] == 5)
    #expect(replay["replay"]?["steps"] == 6 && replay["replay"]?["actions"] == 7)
    #expect(replay["state"] == (try JSONValue(parsing: try session.currentJSON().json)))
  }

  /// A client's actions are recorded as it sent them, without whitespace: the steps keep its
  /// bytes (here a `\u` escape the host would not write itself), and a replay reads them.
  @Test func aClientsActionsAreRecordedAsItSentThem() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let session = try await host.createSession()
    let token = host.tokenSigner.issue(sessionID: session.id)
    let body = #" [ {"add" : "caf\u00e9 au lait"},"increment" ] "#
    let sent = await request(host, "POST", "/api/sessions/\(session.id)/actions", token: token, body: body)
    #expect(sent.status == 202)
    #expect(session.store.snapshot.state.entries.map(\.text) == ["café au lait"])
    let steps = try await host.records(of: session).map { String(decoding: $0.json, as: UTF8.self) }
    #expect(steps.count == 3)
    #expect(steps[1].contains(#""action":{"add":"caf\u00e9 au lait"}"#))
    #expect(steps[2].contains(#""action":"increment""#))
    let replay = await request(host, "POST", "/api/sessions/\(session.id)/replay", token: token, body: "")
    #expect(try JSONValue(parsing: replay.body)["replay"]?["firstDifference"] == .null)
    #expect(try JSONValue(parsing: replay.body)["replay"]?["actions"] == 2)
  }

  @Test func aReplayThroughABuildThatChangedTheReducerReportsTheFirstDifference() async throws {
    let persistence = InMemorySessionPersistence()
    let recorded = journalHost(persistence)
    let (session, token) = try await session(of: recorded)
    try await session.finish()
    // The next build's increment adds 2.
    let changed = journalHost(persistence, step: 2)
    let answer = await request(changed, "POST", "/api/sessions/\(session.id)/replay", token: token, body: "")
    let report = try #require(try JSONValue(parsing: answer.body)["replay"])
    #expect(report["firstDifference"]?["version"] == 1)
    #expect(report["firstDifference"]?["actions"] == ["increment"])
    #expect(report["firstDifference"]?["patch"] == [["op": "replace", "path": "/count", "value": 2]])
    // The new session holds the state where the replay stopped.
    let id = try #require(try JSONValue(parsing: answer.body)["id"]?.stringValue.flatMap(SessionID.init))
    #expect(changed.session(id)?.store.snapshot.state.count == 2)
  }

  @Test func theExportedTestSendsEveryActionAndAssertsEveryChange() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let answer = await request(host, "GET", "/api/sessions/\(session.id)/history/test.swift", token: token)
    #expect(answer.headers["Content-Disposition"]?.contains("ReplaySession_") == true)
    let source = String(decoding: answer.body, as: UTF8.self)
    #expect(source.contains("import StoreHostTests\n"))
    #expect(source.contains("let initialState: HistoryFixtures.Journal.State") || source.contains("let initialState: Journal.State"))
    #expect(source.contains("Journal().droppingEffects()"))
    #expect(source.components(separatedBy: "try await store.send(").count - 1 == 7)
    #expect(source.contains(##"try Recorded.apply(#"[{"op":"replace","path":"/count","value":1}]"#, to: &$0)"##))
    let entry = try #require(session.store.snapshot.state.entries.first)
    #expect(source.contains("store.dependencies.uuid = .constant(UUID(uuidString: \"\(entry.id.uuidString)\")!)"))
    #expect(source.contains("store.dependencies.date = .constant(Date(timeIntervalSinceReferenceDate: \(entry.at.timeIntervalSinceReferenceDate)))"))
    // The step that changed nothing asserts no change; the two actions of one version are
    // sent unchecked, then the state after them is checked whole.
    #expect(source.contains(##"try await store.send(Recorded.action(#""nothing""#))"## + "\n"))
    #expect(source.contains("store.exhaustivity = .off\n  // Sent by the client."))
    #expect(source.contains("  store.assert {\n    $0 = try Recorded.state(#\""))
    // A title holding `"#` and `\#(` needs two `#` around its literal.
    #expect(source.contains(###"##"{"add":"eggs \"# \\#( two"}"##"###))
  }

  @Test func clearingTheHistoryStartsItAgainAtTheCurrentVersion() async throws {
    let host = journalHost(InMemorySessionPersistence())
    let (session, token) = try await session(of: host)
    let cleared = await request(host, "DELETE", "/api/sessions/\(session.id)/history", token: token)
    #expect(cleared.status == 204)
    let steps = try await historySteps(of: session, in: host)
    #expect(steps.map { $0["kind"] } == ["cleared"])
    #expect(steps.map { $0["version"] } == [5])
  }

  @Test func historyRoutesTakeFromTheSessionsRateLimit() async throws {
    let host = journalHost(InMemorySessionPersistence()) {
      $0.actionBurst = 3
      $0.maxActionsPerBatch = 3
      $0.actionsPerSecond = 0.001  // no token comes back during the test, however slow the machine
    }
    let (session, token) = try await session(of: host)
    for _ in 0..<3 {
      #expect(await request(host, "GET", "/api/sessions/\(session.id)/history", token: token).status == 200)
    }
    let limited = await request(host, "GET", "/api/sessions/\(session.id)/history", token: token)
    #expect(limited.status == 429)
    #expect(try JSONValue(parsing: limited.body)["error"]?["code"] == "rate_limited")
    #expect(limited.headers["Retry-After"] != nil)
    let replay = await request(host, "POST", "/api/sessions/\(session.id)/replay", token: token)
    #expect(replay.status == 429)
  }

  @Test func historyRoutesShareTheBucketOfTheSessionsActions() async throws {
    let host = journalHost(InMemorySessionPersistence()) {
      $0.actionBurst = 2
      $0.maxActionsPerBatch = 2
      $0.actionsPerSecond = 0.001  // no token comes back during the test, however slow the machine
    }
    let (session, token) = try await session(of: host)
    #expect(await request(host, "POST", "/api/sessions/\(session.id)/replay", token: token).status == 201)
    let action = await request(
      host, "POST", "/api/sessions/\(session.id)/actions", token: token, body: #""increment""#)
    #expect(action.status == 202)
    #expect(await request(host, "GET", "/api/sessions/\(session.id)/history/test.swift", token: token).status == 429)
  }
}

extension JSONValue {
  var arrayCount: Int? {
    if case .array(let elements) = self { elements.count } else { nil }
  }

  var versions: [JSONValue]? {
    if case .array(let elements) = self { elements.map { $0["version"] ?? .null } } else { nil }
  }

  var stringValue: String? {
    if case .string(let string) = self { string } else { nil }
  }
}
