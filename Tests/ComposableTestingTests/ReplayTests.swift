import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// Notes kept by a feature whose effect needs a client with no test value: a replay must
/// not run it.
@Reducer
private struct Notebook {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var notes: [Note] = []
    var saving = false
  }

  @ObservableState
  struct Note: Equatable, Codable, Sendable {
    var id: UUID
    var text: String
  }

  enum Action: Equatable, Sendable {
    case add(String)
    @Internal case saved
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.numberFact) var server

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(text):
        state.notes.append(Note(id: uuid(), text: text))
        state.saving = true
        return .run { [server] send in
          _ = try await server.fetch(1)
          await send(.saved)
        }
      case .saved:
        state.saving = false
        return .none
      }
    }
  }
}

@Suite struct ReplayTests {
  private let uuid = UUID(uuidString: "0B6E2A8C-6F3B-4C55-9A3E-2F1D8A7C9E01")!

  private func store() throws -> TestStore<Notebook.State, Notebook.Action> {
    let initialState: Notebook.State = try Recorded.state(#"{"notes":[],"saving":false}"#, stateVersion: 0)
    return TestStore(initialState: initialState) { Notebook().droppingEffects() }
  }

  @Test func recordedActionsAndChangesReplayWithoutRunningEffects() async throws {
    let store = try store()
    store.dependencies.uuid = .constant(uuid)
    try await store.send(Recorded.action(#"{"add":"milk"}"#)) {
      try Recorded.apply(
        #"[{"op":"add","path":"/notes/0","value":{"id":"0B6E2A8C-6F3B-4C55-9A3E-2F1D8A7C9E01","text":"milk"}},{"op":"replace","path":"/saving","value":true}]"#,
        to: &$0)
    }
    // What the effect sent back is recorded, and sent in its turn: an internal action.
    try await store.send(Recorded.action(#""saved""#)) {
      try Recorded.apply(#"[{"op":"replace","path":"/saving","value":false}]"#, to: &$0)
    }
    #expect(store.state.notes == [Notebook.Note(id: uuid, text: "milk")])
  }

  @Test func aRecordedValueTheReducerNoLongerMakesFailsNamingTheField() async throws {
    let store = try store()
    store.dependencies.uuid = .constant(uuid)
    try await withKnownIssue {
      try await store.send(Recorded.action(#"{"add":"milk"}"#)) {
        try Recorded.apply(
          #"[{"op":"add","path":"/notes/0","value":{"id":"0B6E2A8C-6F3B-4C55-9A3E-2F1D8A7C9E01","text":"bread"}},{"op":"replace","path":"/saving","value":true}]"#,
          to: &$0)
      }
    } matching: { issue in
      issue.description.contains("−       text: \"bread\"") && issue.description.contains("+       text: \"milk\"")
    }
  }

  @Test func aSequenceGivesTheRecordedValuesInOrderThenReportsAnIssue() {
    let dates = [Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 2)]
    let generator = DateGenerator.sequence(dates)
    #expect(generator() == dates[0] && generator.now == dates[1])
    withKnownIssue {
      #expect(generator() == dates[1])
    } matching: { issue in
      issue.description.contains("Asked for date number 3, but only 2 were recorded.")
    }
    let uuids = UUIDGenerator.sequence([uuid, UUID(0)])
    #expect(uuids() == uuid && uuids() == UUID(0))
  }

  @Test func aRecordedStateIsMigratedFromTheVersionItWasSavedUnder() throws {
    let state: Renamed = try Recorded.state(#"{"old":3}"#, stateVersion: 0)
    #expect(state.new == 3)
    #expect(throws: JSONPatchError.self) {
      var copy = state
      try Recorded.apply(#"[{"op":"replace","path":"/missing","value":1}]"#, to: &copy)
    }
  }
}

private struct Renamed: Codable, Equatable, MigratableState {
  var new: Int

  static var stateVersion: Int { 1 }

  static func migrate(_ json: inout JSONValue, from version: Int) throws {
    json.renameMember("old", to: "new")
  }
}
