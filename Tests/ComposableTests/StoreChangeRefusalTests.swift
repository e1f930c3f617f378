import Synchronization
import Testing

@_spi(Hosting) @testable import Composable

/// A counter whose actions start and cancel a long effect that reports back.
private struct Ticking: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Sendable {
    case start
    case restart
    case tick
  }

  let ticks: TickCount

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.count += 1
      return .run { send in
        try? await Task.sleep(for: .milliseconds(50))
        await send(.tick)
      }
      .cancellable(id: "ticker")
    case .restart:
      state.count += 1
      return .merge(
        .cancel(id: "ticker"),
        .run { send in await send(.tick) }.cancellable(id: "other"))
    case .tick:
      ticks.value.withLock { $0 += 1 }
      return .none
    }
  }
}

private final class TickCount: Sendable {
  let value = Mutex(0)
}

@Suite struct StoreChangeRefusalTests {
  @Test func aRefusedChangeLeavesTheStateTheRunningEffectsAndStartsNothing() async throws {
    let ticks = TickCount()
    let store = Store(initialState: Ticking.State()) {
      Ticking(ticks: ticks)
    } acceptingChange: { $0.state.count <= 1 }
    #expect(!store.send(.start).isRefused)
    let refused = store.send(.restart)
    #expect(refused.isRefused)
    #expect(store.withState(\.count) == 1)
    #expect(store.snapshot.version == 1)
    // Read without the state, the version says the same.
    #expect(store.version == 1)
    // The first effect was not cancelled by the refused action and reports back; the
    // refused action's own effect never does.
    // Once no effect runs, every effect that could have sent a tick has ended.
    for _ in 0..<1000 where store.runningEffectCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
    #expect(store.runningEffectCount == 0)
    #expect(ticks.value.withLock { $0 } == 1)
  }
}
