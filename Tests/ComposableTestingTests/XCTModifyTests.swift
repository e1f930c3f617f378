import ComposableArchitecture
import ComposableTesting
import Testing

private struct Parent: Reducer {
  struct State: Equatable {
    var child: Counter.State?
  }
  enum Action: Equatable {
    case child(Counter.Action)
    case show
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .show = action { state.child = Counter.State() }
      return .none
    }
    .ifLet(\.child, action: /Action.child) {
      Counter()
    }
  }
}

@Test
func xctModifyChangesThePresentedChild() async {
  let store = TestStore(initialState: Parent.State(child: Counter.State())) { Parent() }
  await store.send(.child(.incrementButtonTapped)) {
    XCTModify(&$0.child) { $0.count = 1 }
  }
}

@Test
func xctModifyOfNilFails() {
  var child: Counter.State?
  XCTExpectFailure {
    XCTModify(&child) { $0.count = 1 }
  } issueMatcher: {
    $0.compactDescription.hasSuffix(#"expected non-nil value of type "State""#)
  }
}

@Test
func xctModifyThatChangesNothingFails() {
  var count: Int? = 1
  XCTExpectFailure {
    XCTModify(&count) { _ in }
  } issueMatcher: {
    $0.compactDescription.hasSuffix(#"Expected "Int" value to be modified but it was unchanged."#)
  }
}

@Test
func xctModifyOfACase() throws {
  var result = Result<Int, CancellationError>.success(1)
  XCTModify(&result, case: \.success) { $0 += 1 }
  #expect(try result.get() == 2)

  XCTExpectFailure {
    XCTModify(&result, case: \.failure) { _ in }
  } issueMatcher: {
    $0.compactDescription.contains("expected to extract value of type")
  }
}
