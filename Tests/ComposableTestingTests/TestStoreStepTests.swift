import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// What a test store's state is between steps, and how its steps report what they find.
@MainActor
struct TestStoreStepTests {
  private func makeNumberFactStore() -> TestStoreOf<NumberFact> {
    TestStore(initialState: NumberFact.State()) {
      NumberFact()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }
  }

  @Test
  func stateIsAsOfTheLastStepTheTestWentThrough() async {
    let store = makeNumberFactStore()
    await store.send(.factButtonTapped) { $0.isLoading = true }.finish()
    // The response has arrived, but the test has not received it yet.
    #expect(store.state.isLoading)
    await store.receive(.factResponse("0 is a good number.")) {
      #expect(store.state.fact == nil)
      $0.fact = "0 is a good number."
      $0.isLoading = false
    }
    #expect(store.state.fact == "0 is a good number.")
  }

  @Test
  func skippingReceivedActionsMovesTheStatePastThem() async {
    let store = makeNumberFactStore()
    store.exhaustivity = .off
    await store.send(.factButtonTapped).finish()
    await store.skipReceivedActions()
    #expect(store.state.fact == "0 is a good number.")
  }

  @Test
  func anAssertionThatThrowsFails() async {
    struct Failure: Error {}
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.incrementButtonTapped) { _ in throw Failure() }
    } matching: { issue in
      issue.description.contains("Threw error: Failure()")
    }
  }

  @Test
  func aNonExhaustiveReceiveWithoutAMatchFails() async {
    let store = makeNumberFactStore()
    store.exhaustivity = .off
    await store.send(.factButtonTapped).finish()
    await withKnownIssue {
      await store.receive { $0 == .incrementButtonTapped }
    } matching: { issue in
      issue.description.contains("Expected to receive an action matching predicate, but didn't get one.")
    }
  }

  @Test
  func receiveWaitsForTheStoresTimeout() async {
    let store = TestStore(initialState: TimerFeature.State()) {
      TimerFeature()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    store.timeout = .milliseconds(20)
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await withKnownIssue {
      await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    } matching: { issue in
      issue.description.contains("Expected to receive an action, but received none after 0.02 seconds.")
        && issue.description.contains(#"configure this assertion with an explicit "timeout"."#)
        || issue.description.contains("Expected to receive an action matching case path, but didn't get one.")
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
  }

  @Test
  func xctModifyInANonExhaustiveAssertionMayLeaveTheValueAsItIs() async {
    let store = TestStore(initialState: Optional(1)) {
      Reduce<Int?, Bool> { _, _ in .none }
    }
    store.exhaustivity = .off
    await store.send(true) {
      XCTModify(&$0) { _ in }
    }
  }
}

/// A feature that stamps its state with the current date.
private struct Stamp: Reducer {
  struct State: Equatable { var date: Date? }
  @Dependency(\.date.now) var now

  var body: some Reducer<State, Void> {
    Reduce { state, _ in
      state.date = now
      return .none
    }
  }
}

@Test
func anAssertionReadsTheFeaturesDependencies() async {
  let store = TestStore(initialState: Stamp.State()) {
    Stamp()
  } withDependencies: {
    $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
  }
  await store.send(()) {
    @Dependency(\.date.now) var now
    $0.date = now
  }
}

@Test
func initialStateTakesItsTypeFromTheReducer() async {
  let store = TestStore(initialState: .init()) { Counter() }
  await store.send(.incrementButtonTapped) { $0.count = 1 }
}
