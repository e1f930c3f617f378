import ComposableArchitecture
import ComposableTesting
import Testing

/// A stopwatch that ticks until it is stopped, by the id of its own timer: with a
/// `.cancel(id:)` effect, or with `Task.cancel(id:)` in an effect.
@Reducer
private struct Stopwatch {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable {
    case startTapped
    case stopTapped
    case stopFromEffectTapped
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
        .cancellable(id: CancelID.timer)
      case .stopTapped:
        return .cancel(id: CancelID.timer)
      case .stopFromEffectTapped:
        return .run { _ in Task.cancel(id: CancelID.timer) }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

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

@MainActor
@Test func aPresentedFeatureCancelsOnlyItsOwnEffects() async {
  let clock = TestClock()
  let store = TestStore(initialState: Stopwatches.State(left: Stopwatch.State(), right: Stopwatch.State())) {
    Stopwatches()
  } withDependencies: {
    $0.continuousClock = clock
  }
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
  let store = TestStore(initialState: Stopwatches.State(left: Stopwatch.State(), right: Stopwatch.State())) {
    Stopwatches()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.left(.presented(.startTapped)))
  await store.send(.right(.presented(.startTapped)))
  await store.send(.stopAllTapped)
  await clock.run()
}

@MainActor
@Test func aPresentedFeaturesTaskCancelCancelsOnlyItsOwnEffects() async {
  let clock = TestClock()
  let store = TestStore(initialState: Stopwatches.State(left: Stopwatch.State(), right: Stopwatch.State())) {
    Stopwatches()
  } withDependencies: {
    $0.continuousClock = clock
  }
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
  let store = TestStore(initialState: Stopwatches.State(left: Stopwatch.State(), right: Stopwatch.State())) {
    Stopwatches()
  } withDependencies: {
    $0.continuousClock = clock
  }
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
