import ComposableArchitecture
import ComposableTesting
import Testing

/// A session that is either logged out or counting, scoped to its case.
private struct Session: Reducer {
  enum State: Equatable {
    case counting(Counter.State)
    case loggedOut
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case logIn
    case loggedIn
  }

  var body: some Reducer<State, Action> {
    Scope(state: /State.counting, action: /Action.counter) {
      Counter()
    }
    Reduce { state, action in
      switch action {
      case .logIn:
        return .send(.loggedIn)
      case .loggedIn:
        state = .counting(Counter.State())
        return .none
      case .counter:
        return .none
      }
    }
  }
}

@Test
func scopeToACaseOfAnEnumState() async {
  let store = TestStore(initialState: Session.State.loggedOut) { Session() }
  await store.send(.logIn)
  await store.receive(/Session.Action.loggedIn) {
    $0 = .counting(Counter.State())
  }
  await store.send(.counter(.incrementButtonTapped)) {
    $0 = .counting(Counter.State(count: 1))
  }
}

@Test
func receiveAnActionMatchingAPredicate() async {
  let store = TestStore(initialState: Session.State.loggedOut) { Session() }
  await store.send(.logIn)
  await store.receive { $0 == .loggedIn } assert: {
    $0 = .counting(Counter.State())
  }
}

@Test
func childActionInAnotherCaseIsReported() async {
  let store = TestStore(initialState: Session.State.loggedOut) { Session() }
  await XCTExpectFailure {
    await store.send(.counter(.incrementButtonTapped))
  } issueMatcher: {
    $0.compactDescription.contains("received a child action when child state was set to a different case")
  }
}
