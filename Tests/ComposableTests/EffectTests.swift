import Composable
import Testing

/// A feature that logs what its reducer sees, to check effect ordering.
private struct Logger: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable {
    case start(String)
    case log(String)
    case cancel(String)
  }
  let effect: @Sendable (String) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(name):
      state.log.append("start \(name)")
      return effect(name)
    case let .log(message):
      state.log.append(message)
      return .none
    case let .cancel(id):
      return .cancel(id: id)
    }
  }
}

private func makeStore(_ effect: @escaping @Sendable (String) -> Effect<Logger.Action>) -> StoreOf<Logger> {
  Store(initialState: Logger.State()) { Logger(effect: effect) }
}

@Suite struct EffectTests {
  @Test func sendEffectsRunRightAfterTheActionInOrder() {
    let store = makeStore { _ in .merge(.send(.log("a")), .send(.log("b"))) }
    store.send(.start("x"))
    #expect(store.log == ["start x", "a", "b"])
    #expect(store.snapshot.version == 1, "one send is one state change")
  }

  @Test func runFeedsActionsBackInOrder() async {
    let store = makeStore { _ in
      .run { send in
        for index in 0..<50 { await send(.log("\(index)")) }
      }
    }
    await store.send(.start("x")).finish()
    #expect(store.log == ["start x"] + (0..<50).map { "\($0)" })
  }

  @Test func concatenateRunsOneAfterTheOther() async {
    let store = makeStore { _ in
      .concatenate(
        .run { send in
          try await Task.sleep(for: .milliseconds(20))
          await send(.log("slow"))
        },
        .send(.log("fast")),
        .run { send in await send(.log("last")) }
      )
    }
    await store.send(.start("x")).finish()
    #expect(store.log == ["start x", "slow", "fast", "last"])
  }

  @Test func mergeRunsAtTheSameTime() async {
    let store = makeStore { _ in
      .merge(
        .run { send in
          try await Task.sleep(for: .milliseconds(30))
          await send(.log("slow"))
        },
        .run { send in await send(.log("fast")) }
      )
    }
    await store.send(.start("x")).finish()
    #expect(store.log == ["start x", "fast", "slow"])
  }

  @Test func mapTransformsEveryKindOfEffect() async {
    let effect = Effect<Int>.merge(
      .send(1),
      .run { send in await send(2) },
      .concatenate(.send(3), .run { send in await send(4) })
    ).map { Logger.Action.log("\($0 * 10)") }
    let store = makeStore { _ in effect }
    await store.send(.start("x")).finish()
    #expect(store.log.first == "start x")
    #expect(Set(store.log.dropFirst()) == ["10", "20", "30", "40"])
  }

  @Test func cancelStopsEffectsWithThatID() async {
    let store = makeStore { name in
      .run { send in
        try await Task.sleep(for: .seconds(60))
        await send(.log("finished \(name)"))
      }
      .cancellable(id: name)
    }
    let task = store.send(.start("a"))
    store.send(.start("b"))
    store.send(.cancel("a"))
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.runningEffectCount == 1, "b still runs")
    store.send(.cancel("b"))
  }

  @Test func cancelInFlightKeepsOnlyTheLatest() async {
    let store = makeStore { name in
      .run { send in
        try await Task.sleep(for: .milliseconds(50))
        await send(.log("finished \(name)"))
      }
      .cancellable(id: "search", cancelInFlight: true)
    }
    let first = store.send(.start("a"))
    let second = store.send(.start("b"))
    await first.finish()
    await second.finish()
    #expect(store.log == ["start a", "start b", "finished b"])
  }

  @Test func cancellationIDsBelongToOneRootStore() async {
    let effect: @Sendable (String) -> Effect<Logger.Action> = { name in
      .run { send in
        try await Task.sleep(for: .milliseconds(30))
        await send(.log("finished \(name)"))
      }
      .cancellable(id: "shared")
    }
    let one = makeStore(effect)
    let two = makeStore(effect)
    let task = two.send(.start("two"))
    one.send(.start("one"))
    one.send(.cancel("shared"))
    await task.finish()
    #expect(two.log == ["start two", "finished two"])
    #expect(one.log == ["start one"])
  }

  @Test func runErrorsGoToTheCatchHandler() async {
    struct Failure: Error {}
    let store = makeStore { _ in
      .run { _ in throw Failure() } catch: { error, send in
        await send(.log("caught \(error is Failure)"))
      }
    }
    await store.send(.start("x")).finish()
    #expect(store.log == ["start x", "caught true"])
  }

  @Test func unhandledRunErrorsAreReported() async {
    struct Failure: Error {}
    let issues = IssueCollector()
    await issues.collect {
      let store = makeStore { _ in .run { _ in throw Failure() } }
      await store.send(.start("x")).finish()
    }
    #expect(issues.reported.count == 1)
    let message = issues.reported.first ?? ""
    #expect(message.contains("threw an unhandled error.\n\n    "))
    #expect(message.hasSuffix("Failure()\n\nAll non-cancellation errors must be explicitly handled via the \"catch\" parameter on \"Effect.run\", or via a \"do\" block."))
  }

  @Test func debounceRunsOnlyTheLastOfABurst() async {
    let clock = TestClock()
    let store = makeStore { name in
      .send(.log("ran \(name)")).debounce(id: "debounce", for: .seconds(1), clock: clock)
    }
    store.send(.start("a"))
    await clock.advance(by: .milliseconds(500))
    let last = store.send(.start("b"))
    await clock.advance(by: .milliseconds(999))
    #expect(store.log == ["start a", "start b"])
    await clock.advance(by: .milliseconds(1))
    await last.finish()
    #expect(store.log == ["start a", "start b", "ran b"])
  }

  @Test func throttleRunsTheFirstAtOnceAndTheLatestAtTheEndOfTheWindow() async {
    let clock = TestClock()
    let store = makeStore { name in
      .send(.log("ran \(name)")).throttle(id: "throttle", for: .seconds(1), clock: clock, latest: true)
    }
    store.send(.start("a"))
    #expect(store.log == ["start a", "ran a"])
    store.send(.start("b"))
    let last = store.send(.start("c"))
    #expect(store.log == ["start a", "ran a", "start b", "start c"])
    await clock.advance(by: .seconds(1))
    await last.finish()
    #expect(store.log == ["start a", "ran a", "start b", "start c", "ran c"])
  }

  @Test func throttleWithoutLatestKeepsTheFirstOfTheWindow() async {
    let clock = TestClock()
    let store = makeStore { name in
      .send(.log("ran \(name)")).throttle(id: "throttle", for: .seconds(1), clock: clock, latest: false)
    }
    store.send(.start("a"))
    let pending = store.send(.start("b"))
    store.send(.start("c"))
    await clock.advance(by: .seconds(1))
    await pending.finish()
    #expect(store.log == ["start a", "ran a", "start b", "start c", "ran b"])
  }
}
