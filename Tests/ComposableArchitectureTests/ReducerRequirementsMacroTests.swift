import ComposableArchitecture
import Testing

/// What `@Reducer` writes into a struct that leaves requirements out, as TCA's macro does.
@Suite struct ReducerRequirementsMacroTests {
  @Test func aFeatureWithNothingGetsAnEmptyStateNoActionsAndAnEmptyBody() {
    let store = Store(initialState: Placeholder.State()) { Placeholder() }
    let state: any Codable & Hashable & Sendable = store.withState { $0 }
    #expect(state as? Placeholder.State == Placeholder.State())
  }

  @Test func aFeatureWithItsStateGetsAnAction() {
    let store = Store(initialState: Titled.State(title: "Blob")) { Titled() }
    #expect(store.title == "Blob")
  }

  @Test func aStoredBodyNamesItsOwnTypes() {
    let store = Store(initialState: 1) { Adding() }
    store.send(2)
    #expect(store.withState { $0 } == 3)
  }

  @Test func anEnumCaseRunsTheReducerItsDefaultValueMakes() {
    let store = Store(initialState: Destination.State.labeled(Labeled.State())) {
      Destination.body
    }
    store.send(.labeled(.tap))
    #expect(store.withState { $0.labeled?.text } == "context")
  }

}
@Reducer private struct Placeholder {}

@Reducer private struct Titled {
  struct State: Equatable {
    var title: String
  }
}

@Reducer private struct Adding {
  let body = Sum()
}

private struct Sum: Reducer {
  func reduce(into state: inout Int, action: Int) -> Effect<Int> {
    state += action
    return .none
  }
}

@Reducer private struct Labeled {
  let context: String
  struct State: Equatable, Codable {
    var text = ""
  }
  enum Action {
    case tap
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.text = context
      return .none
    }
  }
}

@Reducer private enum Destination {
  case labeled(Labeled = Labeled(context: "context"))
  case counter(Counter)
}


