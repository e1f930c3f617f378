import ComposableArchitecture
import ComposableTesting
import Testing

/// A pushed screen that listens until it is gone.
@Reducer
private struct Listener {
  struct State: Equatable {}
  enum Action: Equatable {
    case onAppear
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in
      .run { _ in try await Task.never() }
    }
  }
}

/// Clears its stack before `forEach` runs (`clearBefore`) or after it (`clearAfter`).
@Reducer
private struct Screens {
  struct State: Equatable {
    var path = StackState<Listener.State>()
  }
  enum Action: Equatable {
    case clearAfter
    case clearBefore
    case path(StackActionOf<Listener>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if action == .clearBefore { state.path.removeAll() }
      return .none
    }
    EmptyReducer()
      .forEach(\.path, action: \.path) { Listener() }
    Reduce { state, action in
      if action == .clearAfter { state.path.removeAll() }
      return .none
    }
  }
}

@MainActor
@Test func anElementRemovedBeforeForEachRunsHasItsEffectsCancelledAtOnce() async {
  let store = TestStore(initialState: Screens.State()) { Screens() }
  await store.send(.path(.push(id: 0, state: Listener.State()))) {
    $0.path[id: 0] = Listener.State()
  }
  await store.send(.path(.element(id: 0, action: .onAppear)))
  await store.send(.clearBefore) {
    $0.path.removeAll()
  }
  // The test ends with no effect running: the listener's was cancelled.
}

@MainActor
@Test func anElementRemovedAfterForEachRanHasItsEffectsCancelledAtTheNextAction() async {
  let store = TestStore(initialState: Screens.State()) { Screens() }
  await store.send(.path(.push(id: 0, state: Listener.State()))) {
    $0.path[id: 0] = Listener.State()
  }
  await store.send(.path(.element(id: 0, action: .onAppear)))
  await store.send(.clearAfter) {
    $0.path.removeAll()
  }
  await store.send(.clearAfter)
}
