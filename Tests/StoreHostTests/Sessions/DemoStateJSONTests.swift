import ComposableArchitecture
import Foundation
import JSONTestSupport
import Synchronization
import Testing

@testable import StoreHost
import StoreHostDemo

/// The demo's own states, as the host encodes and diffs them.
@Suite struct DemoStateJSONTests {
  private static let titles = ["", "Milk", "quote\" backslash\\ tab\t", "é 中文 😀", String(repeating: "long ", count: 40)]

  private func randomState(using generator: inout SeededGenerator) -> AppFeature.State {
    var state = AppFeature.State()
    state.counter.count = Int.random(in: -5...5, using: &generator)
    state.twoCounters.first.count = Int.random(in: 0...3, using: &generator)
    state.todos.newTodoText = Self.titles.randomElement(using: &generator)!
    state.todos.filter = Todos.Filter.allCases.randomElement(using: &generator)!
    for _ in 0..<Int.random(in: 0...20, using: &generator) {
      state.todos.todos.append(
        Todo.State(
          id: UUID(), title: Self.titles.randomElement(using: &generator)!, isComplete: .random(using: &generator)))
    }
    state.numberFact.fact = Bool.random(using: &generator) ? nil : "\(state.counter.count) is a number."
    return state
  }

  @Test func theDemoStateIsWrittenAndDiffedByTheMacro() {
    let type: Any.Type = AppFeature.State.self
    #expect(type is any JSONDiffable.Type)
  }

  /// The macro's `writeJSON` and `encode(to:)` give the bytes of the synthesized `Codable`
  /// of the demo's states declared without the macro (`AppFeatureTwin`).
  @Test func demoStatesEncodeToTheBytesSynthesizedCodableGives() throws {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<200 {
      let state = randomState(using: &generator)
      let texts = try TwinTexts(state, as: AppFeatureTwin.self)
      #expect(String(decoding: try JSONEncoding.encode(state), as: UTF8.self) == texts.synthesized)
      #expect(texts.encoded == texts.synthesized)
    }
  }

  @Test func everyVersionsPatchTurnsThePreviousJSONIntoItsOwn() throws {
    let count = Shared(0)
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.sharedCountKey = InMemoryKey<Int>.inMemory("demo-patch-test-\(UUID())")
      $0.uuid = .incrementing
    }
    let versions = Mutex<[StoreSnapshot<AppFeature.State>]>([])
    let observation = store.observe { snapshot in versions.withLock { $0.append(snapshot) } }
    var generator = SeededGenerator(seed: 11)
    for round in 0..<300 {
      let ids = store.withState { $0.todos.todos.ids }
      switch Int.random(in: 0..<8, using: &generator) {
      case 0: store.send(.counter(.incrementButtonTapped))
      case 1: store.send(.twoCounters(.second(.decrementButtonTapped)))
      case 2:
        store.send(.todos(.binding(.set(\.newTodoText, Self.titles.randomElement(using: &generator)! + "\(round)"))))
        store.send(.todos(.addButtonTapped))
      case 3:
        if let id = ids.randomElement(using: &generator) {
          store.send(.todos(.todos(.element(id: id, action: .binding(.set(\.isComplete, .random(using: &generator)))))))
        }
      case 4: if let id = ids.randomElement(using: &generator) { store.send(.todos(.deleteButtonTapped(id: id))) }
      case 5: store.send(.todos(.clearCompletedButtonTapped))
      case 6: store.send(.shared(.incrementButtonTapped))
      default: count.withLock { $0 += 1 }
      }
    }
    observation.cancel()
    let published = versions.withLock { $0 }
    #expect(published.count > 200)
    for (old, new) in zip(published, published.dropFirst()) {
      let patch = try new.patch(from: old)
      let oldJSON = try old.encodedState()
      let newJSON = try new.encodedState()
      let operations = try JSONDecoder().decode([JSONPatchOperation].self, from: Data(patch.operations))
      #expect(try JSONPatch.apply(operations, to: JSONValue(parsing: oldJSON)) == JSONValue(parsing: newJSON), "version \(new.version)")
      #expect(patch.sizeChange == newJSON.count - oldJSON.count, "version \(new.version)")
    }
  }
}

@Suite struct DemoStateMigrationTests {
  @Test func aStateSavedBeforeTheNumberWasRenamedKeepsItsNumber() throws {
    var saved = try JSONValue(parsing: JSONEncoding.encode(AppFeature.State()))
    saved["numberFact"] = ["count": 42, "isLoading": false]
    let state = try SavedState.decode(AppFeature.State.self, from: saved, savedAt: 0)
    #expect(state.numberFact.number == 42)
    #expect(SavedState.version(of: AppFeature.State.self) == 1)
  }
}
