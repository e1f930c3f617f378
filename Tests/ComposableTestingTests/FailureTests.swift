import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func stateMismatchFailsWithADiff() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  await withKnownIssue {
    await store.send(.incrementButtonTapped) { $0.count = 2 }
  } matching: { issue in
    issue.description.contains(
      """
      A state change does not match expectation.

          − Counter.State(count: 2)
          + Counter.State(count: 1)

      (Expected: −, Actual: +)
      """)
  }
}

@Test
func unexpectedStateChangeFails() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  await withKnownIssue {
    await store.send(.incrementButtonTapped)
  } matching: { issue in
    issue.description.contains("State was not expected to change, but a change occurred")
  }
}

@Test
func stepThatChangesNothingFails() async {
  let store = TestStore(initialState: NumberFact.State()) { NumberFact() }
  await store.send(.factResponse("A fact")) { $0.fact = "A fact" }
  await withKnownIssue {
    await store.send(.factResponse("A fact")) { $0.fact = "A fact" }
  } matching: { issue in
    issue.description.contains("Expected state to change, but no change occurred")
  }
}

@Test
func assertOfTheStateAsItIsPasses() async {
  let store = TestStore(initialState: Counter.State(count: 1)) { Counter() }
  await store.send(.decrementButtonTapped) {
    $0.count = 0
  }
  store.assert { $0.count = 0 }
  withKnownIssue {
    store.assert { $0.count = 5 }
  } matching: { issue in
    issue.description.contains("− Counter.State(count: 5)")
  }
}

@Test
func receivedActionLeftUnassertedFails() async {
  await withKnownIssue {
    let store = TestStore(initialState: NumberFact.State()) {
      NumberFact()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0)" }
    }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.finish()
  } matching: { issue in
    issue.description.contains(
      """
      The store received 1 unexpected action.

        Unhandled actions:
          .factResponse
      """)
  }
}

@Test
func sendingBeforeHandlingReceivedActionsFails() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0)" }
  }
  await store.send(.factButtonTapped) { $0.isLoading = true }.finish()
  await withKnownIssue {
    await store.send(.incrementButtonTapped) { $0.count = 1 }
  } matching: { issue in
    issue.description.contains(
      """
      Must handle 1 received action before sending an action.

      Unhandled actions: [
        [0]: .factResponse("0")
      ]
      """)
  }
  // The action stays to be received.
  await store.receive(.factResponse("0")) {
    $0.fact = "0"
    $0.isLoading = false
  }
}

@Test
func unexpectedReceivedActionFailsWithADiff() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0)" }
  }
  await store.send(.factButtonTapped) { $0.isLoading = true }
  await withKnownIssue {
    await store.receive(.factResponse("1"))
  } matching: { issue in
    issue.description.contains(
      """
      Received unexpected action:

          − NumberFact.Action.factResponse("1")
          + NumberFact.Action.factResponse("0")

      (Expected: −, Received: +)
      """)
  }
}

@Test
func effectStillRunningAtTheEndFails() async {
  await withKnownIssue {
    let store = TestStore(initialState: TimerFeature.State()) {
      TimerFeature()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
  } matching: { issue in
    issue.description.contains("An effect returned for this action is still running.")
  }
}

@Test
func finishFailsWhileEffectsRun() async {
  let store = TestStore(initialState: TimerFeature.State()) {
    TimerFeature()
  } withDependencies: {
    $0.continuousClock = TestClock()
  }
  await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
  await withKnownIssue {
    await store.finish(timeout: .milliseconds(20))
  } matching: { issue in
    issue.description.contains("Expected effects to finish, but there are still effects in-flight after 0.02 seconds")
  }
}

@Test
func receiveTimesOut() async {
  let clock = TestClock()
  let store = TestStore(initialState: TimerFeature.State()) {
    TimerFeature()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
  await withKnownIssue {
    await store.receive(\.timerTick, timeout: .milliseconds(20)) { $0.secondsElapsed = 1 }
  } matching: { issue in
    // As in TCA: the timeout, then the assertion that found nothing to receive.
    issue.description.contains("Expected to receive an action, but received none after 0.02 seconds.")
      || issue.description.contains("Expected to receive an action matching case path, but didn't get one.")
  }
  await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
}

@Test
func receiveWithoutRunningEffectsFailsAtOnce() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  await withKnownIssue {
    await store.receive(.incrementButtonTapped)
  } matching: { issue in
    issue.description.contains(
      """
      Expected to receive the following action, but didn't:

        Counter.Action.incrementButtonTapped
      """)
  }
}

@Test
func unimplementedDependencyInReducerFails() async {
  let store = TestStore(initialState: Todos.State()) { Todos() }
  store.exhaustivity = .off
  await withKnownIssue {
    await store.send(.addTodoButtonTapped)
  } matching: { issue in
    issue.description.contains("@Dependency(\\.uuid) has no test implementation")
  }
}

@Test
func unimplementedDependencyInEffectFails() async {
  let store = TestStore(initialState: NumberFact.State()) { NumberFact() }
  await withKnownIssue {
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
      $0.fact = "0 is a number."
      $0.isLoading = false
    }
  } matching: { issue in
    issue.description.contains("@Dependency(\\.numberFact) has no test implementation")
  }
}
