import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

private func configuration() -> SessionHostConfiguration {
  var configuration = SessionHostConfiguration()
  configuration.historyLength = 100
  return configuration
}

@Suite struct HistoryMigrationTests {
  @Test func aHistorySpanningAMigrationGivesEveryStateInTheNewShapeAndReplaysThroughTheNewBuild() async throws {
    let persistence = InMemorySessionPersistence()
    let old = SessionHost(
      configuration: configuration(), persistence: persistence, tokenSigner: historySigner,
      initialState: NoteV0.State(), reducer: { NoteV0() })
    let session = try await old.createSession()
    session.store.send(.write("first"))
    session.store.send(.write("second"))
    try await session.finish()

    let new = SessionHost(
      configuration: configuration(), persistence: persistence, tokenSigner: historySigner,
      initialState: NoteV1.State(), reducer: { NoteV1() })
    let restored = try await new.liveSession(session.id)
    restored.store.send(.write("third"))
    let records = try await new.records(of: restored)
    #expect(records.map(\.stateVersion) == [0, 0, 0, 1, 1])
    #expect(try JSONValue(parsing: records[4].json)["patch"] == [["op": "replace", "path": "/body", "value": "third"]])

    var router = Router()
    new.addRoutes(to: &router)
    let token = new.tokenSigner.issue(sessionID: session.id)
    func answer(_ method: String, _ path: String) async throws -> JSONValue {
      let response = await router.respond(
        to: Request(
          method: method, path: "/api/sessions/\(session.id)\(path)", headers: ["Authorization": "Bearer \(token)"]))
      guard case .bytes(let body) = response.body else { return .null }
      return try JSONValue(parsing: body)
    }
    // A state an earlier build recorded is served as this build reads it.
    #expect(try await answer("GET", "/history/1")["state"] == ["body": "first"])
    #expect(try await answer("GET", "/history/3")["state"] == ["body": "third"])
    let replay = try await answer("POST", "/replay")
    #expect(replay["replay"]?["from"] == 0 && replay["replay"]?["to"] == 3)
    #expect(replay["replay"]?["firstDifference"] == .null)
    #expect(replay["state"] == ["body": "third"])
    // The exported test starts from the first state, in the new shape.
    let test = try String(
      decoding: #require(await router.respond(to: Request(method: "GET", path: "/api/sessions/\(session.id)/history/test.swift", headers: ["Authorization": "Bearer \(token)"])).body.bytes), as: UTF8.self)
    #expect(test.contains(##"try Recorded.state(\##n    #"{"body":""}"#,\##n    stateVersion: 1)"##))
    #expect(test.contains(##"#"[{"op":"replace","path":"/body","value":"first"}]"#"##))
  }
}

extension Response.Body {
  var bytes: [UInt8]? {
    if case .bytes(let bytes) = self { bytes } else { nil }
  }
}
