import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

@Suite struct ActionRequestSaveTests {
  @Test func aRequestOfSeveralActionsIsSavedOnceWithEveryStepOfItsHistory() async throws {
    let persistence = RecordingPersistence()
    let host = journalHost(persistence)
    let session = try await host.createSession()
    try await session.flush()
    let token = host.tokenSigner.issue(sessionID: session.id)
    let path = "/api/sessions/\(session.id)/actions"
    let before = persistence.versions(session.id)

    let several = await request(host, "POST", path, token: token, body: #"["increment", {"add": "milk"}, "increment"]"#)
    #expect(several.status == 202)
    #expect(session.version == before.last! + 3)
    try await session.flush()
    #expect(persistence.versions(session.id) == before + [session.version], "one save, of the last version")

    let one = await request(host, "POST", path, token: token, body: #""increment""#)
    #expect(one.status == 202)
    try await session.flush()
    #expect(persistence.versions(session.id) == before + [session.version - 1, session.version])

    // Every version the request made has its step, saved with the state.
    #expect(try await host.records(of: session).map(\.version) == Array(0...session.version))
    #expect(try await host.liveSession(session.id).store.snapshot.state.entries.map(\.text) == ["milk"])
  }
}
