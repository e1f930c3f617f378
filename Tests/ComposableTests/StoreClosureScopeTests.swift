import Composable
import Testing

/// `scope(state:action:)` with closures, TCA's older form.
@Suite struct StoreClosureScopeTests {
  @available(*, deprecated)
  @Test func aClosureScopeReadsAndSendsThroughItsParent() {
    let store = Store(initialState: TwoCounters.State()) { TwoCounters() }
    let second = store.scope(state: { $0.second }, action: { .second($0) })
    second.send(.incrementButtonTapped)
    #expect(second.count == 1)
    #expect(store.second.count == 1)
    #expect(store.first.count == 0)
  }
}
