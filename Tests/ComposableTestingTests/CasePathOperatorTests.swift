import ComposableArchitecture
import ComposableTesting
import Testing

/// A parent that scopes its children the way features did before case key paths.
private struct Parent: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    @PresentationState var child: Counter.State?
    var destination: Destination = .none
  }
  enum Destination: Equatable {
    case none
    case counter(Counter.State)
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case child(PresentationAction<Counter.Action>)
    case showChild
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: /Action.counter) {
      Counter()
    }
    Reduce { state, action in
      if case .showChild = action { state.child = Counter.State() }
      return .none
    }
    .ifLet(\.$child, action: /Action.child) {
      Counter()
    }
  }
}

@Test
func slashCasePathEmbedsAndExtracts() {
  let path = /Parent.Action.counter
  #expect(path.embed(.incrementButtonTapped) == .counter(.incrementButtonTapped))
  #expect(path.extract(from: .counter(.decrementButtonTapped)) == .decrementButtonTapped)
  #expect(path.extract(from: .showChild) == nil)

  let tap = /Parent.Action.showChild
  #expect(tap.extract(from: .showChild) != nil)
  #expect(tap.extract(from: .counter(.incrementButtonTapped)) == nil)
}

@Test
func slashCasePathsScopeReducers() async {
  let store = TestStore(initialState: Parent.State()) { Parent() }
  await store.send(.counter(.incrementButtonTapped)) {
    $0.counter.count = 1
  }
  await store.send(.showChild) {
    $0.child = Counter.State()
  }
  await store.send(.child(.presented(.incrementButtonTapped))) {
    $0.child?.count = 1
  }
}

@Test
func modifyChangesTheCaseInPlace() throws {
  var destination = Parent.Destination.counter(Counter.State())
  try (/Parent.Destination.counter).modify(&destination) {
    $0.count = 5
  }
  #expect(destination == .counter(Counter.State(count: 5)))

  var none = Parent.Destination.none
  #expect(throws: ExtractionFailed.self) {
    try (/Parent.Destination.counter).modify(&none) { $0.count = 5 }
  }
}

/// A feature whose state is an enum, scoped with `ifCaseLet` and case paths.
private struct Screen: Reducer {
  enum State: Equatable {
    case counter(Counter.State)
    case empty
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case clear
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .clear = action { state = .empty }
      return .none
    }
    .ifCaseLet(/State.counter, action: /Action.counter) {
      Counter()
    }
  }
}

@Test
func ifCaseLetWithCasePaths() async {
  let store = TestStore(initialState: Screen.State.counter(Counter.State())) { Screen() }
  await store.send(.counter(.incrementButtonTapped)) {
    try (/Screen.State.counter).modify(&$0) { $0.count = 1 }
  }
  await store.send(.clear) {
    $0 = .empty
  }
}
