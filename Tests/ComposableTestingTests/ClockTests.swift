import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func timerTicksAsTheTestClockAdvances() async {
  let clock = TestClock()
  let store = TestStore(initialState: TimerFeature.State()) {
    TimerFeature()
  } withDependencies: {
    $0.continuousClock = clock
  }

  await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
  await clock.advance(by: .seconds(1))
  await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
  await clock.advance(by: .seconds(3))
  await store.receive(\.timerTick) { $0.secondsElapsed = 2 }
  await store.receive(\.timerTick) { $0.secondsElapsed = 3 }
  await store.receive(\.timerTick) { $0.secondsElapsed = 4 }
  await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
  await clock.run()
}

@Test
func timerStopsWhenItsTaskIsCancelled() async {
  let clock = TestClock()
  let store = TestStore(initialState: TimerFeature.State()) {
    TimerFeature()
  } withDependencies: {
    $0.continuousClock = clock
  }

  let timer = await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
  await clock.advance(by: .seconds(1))
  await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
  await timer.cancel()
  #expect(timer.isCancelled)
  await clock.advance(by: .seconds(5))
}

@Test
func searchIsDebounced() async {
  let clock = TestClock()
  let store = TestStore(initialState: Search.State()) {
    Search()
  } withDependencies: {
    $0.continuousClock = clock
  }

  await store.send(.queryChanged("c")) { $0.query = "c" }
  await clock.advance(by: .milliseconds(200))
  await store.send(.queryChanged("co")) { $0.query = "co" }
  await clock.advance(by: .milliseconds(299))
  await store.send(.queryChanged("com")) { $0.query = "com" }
  await clock.advance(by: .milliseconds(300))
  await store.receive(\.searchResponse, ["com one", "com two"]) {
    $0.results = ["com one", "com two"]
  }
}
