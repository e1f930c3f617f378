import ComposableArchitecture
import ComposableTesting
import Testing

/// A stopwatch's test store, on `clock`.
@MainActor
private func stopwatch(on clock: TestClock<Duration>) -> TestStoreOf<Stopwatch> {
  TestStore(initialState: Stopwatch.State()) {
    Stopwatch()
  } withDependencies: {
    $0.continuousClock = clock
  }
}

@MainActor
@Test func taskCancelInAnEffectCancelsTheStoresEffect() async {
  let clock = TestClock()
  let store = stopwatch(on: clock)
  await store.send(.startTapped)
  await clock.advance(by: .seconds(1))
  await store.receive(.tick) {
    $0.ticks = 1
  }
  await store.send(.stopFromEffectTapped).finish()
  await clock.advance(by: .seconds(5))
}

@MainActor
@Test func taskCancelInAReducerCancelsTheStoresEffect() async {
  let clock = TestClock()
  let store = stopwatch(on: clock)
  await store.send(.startTapped)
  await store.send(.stopFromReducerTapped)
  await clock.advance(by: .seconds(5))
}

@MainActor
@Test func taskCancelInOneStoreLeavesAnotherStoresEffects() async {
  let clock = TestClock()
  let store = stopwatch(on: clock)
  let otherStore = stopwatch(on: clock)
  await store.send(.startTapped)
  await otherStore.send(.startTapped)
  await store.send(.stopFromEffectTapped).finish()
  await clock.advance(by: .seconds(1))
  await otherStore.receive(.tick) {
    $0.ticks = 1
  }
  await otherStore.send(.stopFromEffectTapped).finish()
}

/// Work run with `withTaskCancellation`, stopped by a `.cancel(id:)` effect.
@Reducer
private struct Download {
  struct State: Equatable {}

  enum Action: Equatable {
    case startTapped
    case started
    case stopTapped
    case stopped
  }

  enum CancelID { case download }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .startTapped:
        return .run { send in
          await withTaskCancellation(id: CancelID.download) {
            await send(.started)
            try? await Task.never()
          }
          await send(.stopped)
        }
      case .stopTapped:
        return .cancel(id: CancelID.download)
      case .started, .stopped:
        return .none
      }
    }
  }
}

@MainActor
@Test func aCancelEffectLeavesAnotherStoresTaskCancellation() async {
  let store = TestStore(initialState: Download.State()) { Download() }
  let otherStore = TestStore(initialState: Download.State()) { Download() }
  await otherStore.send(.startTapped)
  await otherStore.receive(.started)
  await store.send(.startTapped)
  await store.receive(.started)
  await store.send(.stopTapped)
  await store.receive(.stopped)
  // Had the other store's download been cancelled, its `.stopped` would be unhandled here.
  await otherStore.send(.stopTapped)
  await otherStore.receive(.stopped)
}

/// Two cases with the same kind of child, scoped with case paths.
private struct Tabs: Reducer {
  enum State: Equatable {
    case first(Stopwatch.State)
    case second(Stopwatch.State)
  }

  enum Action: Equatable {
    case first(Stopwatch.Action)
    case second(Stopwatch.Action)
    case secondTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if action == .secondTapped { state = .second(Stopwatch.State()) }
      return .none
    }
    .ifCaseLet(/State.first, action: /Action.first) { Stopwatch() }
    .ifCaseLet(/State.second, action: /Action.second) { Stopwatch() }
  }
}

@MainActor
@Test func ifCaseLetWithCasePathsCancelsACaseLeftForASibling() async {
  let clock = TestClock()
  let store = TestStore(initialState: Tabs.State.first(Stopwatch.State())) {
    Tabs()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.first(.startTapped))
  await clock.advance(by: .seconds(1))
  await store.receive(.first(.tick)) {
    try (/Tabs.State.first).modify(&$0) { $0.ticks = 1 }
  }
  await store.send(.secondTapped) {
    $0 = .second(Stopwatch.State())
  }
  await clock.advance(by: .seconds(1))
}

@Test func cancelInFlightInsideTheSameIDRunsTheEffect() async {
  let effect = Effect.send(42)
    .cancellable(id: "id", cancelInFlight: true)
    .cancellable(id: "id", cancelInFlight: true)
  var received: [Int] = []
  for await action in effect.actions {
    received.append(action)
  }
  #expect(received == [42])
}

@Test func mapTransformsWithTheDependenciesOfItsCaller() async {
  @Dependency(\.uuid) var uuid
  let effect = withDependencies {
    $0.uuid = .incrementing
  } operation: {
    Effect<Void>.run { send in await send(()) }.map { uuid() }
  }
  var received: [UUID] = []
  for await id in effect.actions {
    received.append(id)
  }
  #expect(received == [UUID(0)])
}

@Test func cancellableValueCancelsTheTaskWithItsWaiter() async {
  let work = Task {
    try? await Task.never()
    return Task.isCancelled
  }
  let waiter = Task { await work.cancellableValue }
  waiter.cancel()
  #expect(await waiter.value)
}

@Test func testStoreTaskOfATaskFinishesWithIt() async {
  let work = Task {}
  let task = TestStoreTask(rawValue: work, timeout: .seconds(1))
  await task.finish()
  #expect(!task.isCancelled)
  #expect(TestStoreTask(rawValue: nil, timeout: .seconds(1)).isCancelled)
}
