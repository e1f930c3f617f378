import ComposableArchitecture
import ComposableTesting
import Testing

/// Two stopwatches presented side by side, and buttons that stop both.
@Reducer
private struct Stopwatches {
  struct State: Equatable {
    @Presents var left: Stopwatch.State?
    @Presents var right: Stopwatch.State?
  }

  enum Action: Equatable {
    case left(PresentationAction<Stopwatch.Action>)
    case right(PresentationAction<Stopwatch.Action>)
    case stopAllTapped
    case stopAllFromEffectTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .stopAllTapped: .cancel(id: Stopwatch.CancelID.timer)
      case .stopAllFromEffectTapped: .run { _ in Task.cancel(id: Stopwatch.CancelID.timer) }
      default: .none
      }
    }
    .ifLet(\.$left, action: \.left) { Stopwatch() }
      .ifLet(\.$right, action: \.right) { Stopwatch() }
  }
}

/// Both stopwatches presented, on `clock`.
@MainActor
private func twoStopwatches(on clock: TestClock<Duration>) -> TestStoreOf<Stopwatches> {
  TestStore(initialState: Stopwatches.State(left: Stopwatch.State(), right: Stopwatch.State())) {
    Stopwatches()
  } withDependencies: {
    $0.continuousClock = clock
  }
}

@MainActor
@Test func aPresentedFeatureCancelsOnlyItsOwnEffects() async {
  let clock = TestClock()
  let store = twoStopwatches(on: clock)
  await store.send(.left(.presented(.startTapped)))
  await store.send(.right(.presented(.startTapped)))
  await store.send(.left(.presented(.stopTapped)))
  await clock.advance(by: .seconds(1))
  await store.receive(.right(.presented(.tick))) {
    $0.right?.ticks = 1
  }
  await store.send(.right(.presented(.stopTapped)))
}

@MainActor
@Test func aParentCancelsItsPresentedFeaturesEffectsByTheirIDs() async {
  let clock = TestClock()
  let store = twoStopwatches(on: clock)
  await store.send(.left(.presented(.startTapped)))
  await store.send(.right(.presented(.startTapped)))
  await store.send(.stopAllTapped)
  await clock.run()
}

@MainActor
@Test func aPresentedFeaturesTaskCancelCancelsOnlyItsOwnEffects() async {
  let clock = TestClock()
  let store = twoStopwatches(on: clock)
  await store.send(.left(.presented(.startTapped)))
  await store.send(.right(.presented(.startTapped)))
  await store.send(.left(.presented(.stopFromEffectTapped))).finish()
  await clock.advance(by: .seconds(1))
  await store.receive(.right(.presented(.tick))) {
    $0.right?.ticks = 1
  }
  await store.send(.right(.presented(.stopTapped)))
}

@MainActor
@Test func aParentsTaskCancelCancelsItsPresentedFeaturesEffects() async {
  let clock = TestClock()
  let store = twoStopwatches(on: clock)
  await store.send(.left(.presented(.startTapped)))
  await store.send(.right(.presented(.startTapped)))
  await store.send(.stopAllFromEffectTapped).finish()
  await clock.run()
}

/// A stopwatch that a reducer after its `ifLet` closes.
@Reducer
private struct ClosableStopwatch {
  struct State: Equatable {
    @Presents var stopwatch: Stopwatch.State?
  }

  enum Action: Equatable {
    case closeTapped
    case refresh
    case stopwatch(PresentationAction<Stopwatch.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(\.$stopwatch, action: \.stopwatch) { Stopwatch() }
    Reduce { state, action in
      if action == .closeTapped { state.stopwatch = nil }
      return .none
    }
  }
}

@MainActor
@Test func effectsOfAFeatureClosedOutsideItsIfLetEndAtTheNextAction() async {
  let clock = TestClock()
  let store = TestStore(initialState: ClosableStopwatch.State(stopwatch: Stopwatch.State())) {
    ClosableStopwatch()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.stopwatch(.presented(.startTapped)))
  await store.send(.closeTapped) {
    $0.stopwatch = nil
  }
  await store.send(.refresh)
  await clock.advance(by: .seconds(3))
}
