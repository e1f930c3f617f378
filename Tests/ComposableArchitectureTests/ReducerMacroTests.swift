import ComposableArchitecture
import Foundation
import Testing

@Suite struct ReducerMacroTests {
  @Test func seedCounterRuns() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    store.send(.decrementButtonTapped)
    #expect(store.count == 1)
  }

  @Test func reducerBodyIsBuiltWithTheBuilder() {
    let store = Store(initialState: Todo.State(id: todoID)) { Todo() }
    store.send(.binding(.set(\.title, "Milk")))
    store.send(.saved(false))
    #expect(store.title == "Milk")
    #expect(store.isSaving)
  }

  @Test func clientActionsDriveAStore() throws {
    let store = Store(initialState: App.State()) { App() }
    let body = #"[{"counter":"incrementButtonTapped"},{"counter":"incrementButtonTapped"}]"#
    for action in try ActionDecoding.decodeClientActions(App.Action.self, from: Data(body.utf8)) {
      store.send(action)
    }
    #expect(store.counter.count == 2)
  }

  @Test func decodedBindingsReachTheState() throws {
    let store = Store(initialState: Todo.State(id: todoID)) { Todo() }
    let action = try ActionDecoding.decodeClientAction(
      Todo.Action.self, from: Data(#"{"binding":{"isComplete":true}}"#.utf8))
    store.send(action)
    #expect(store.isComplete)
  }

  @Test func anEnumStateGetsCasePathsAndCaseMembers() {
    let store = Store(initialState: Screen.State.counter(Counter.State())) { Screen() }
    store.send(.counter(.incrementButtonTapped))
    #expect(store.withState { $0.counter?.count } == 1)
    #expect(store.withState { $0.settings } == nil)
  }
}

/// A feature whose state is an enum: `@Reducer` makes it `@CasePathable` and
/// `@dynamicMemberLookup`, so `Scope` reaches its cases by key path.
@Reducer
private struct Screen {
  enum State: Equatable {
    case counter(Counter.State)
    case settings(String)
  }

  enum Action {
    case counter(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) {
      Counter()
    }
  }
}
