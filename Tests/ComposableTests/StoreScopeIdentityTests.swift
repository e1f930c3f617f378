import Composable
import Testing

/// Scoping with key paths gives the same child store while it lives, as TCA's store cache does.
@Suite struct StoreScopeIdentityTests {
  @Test func scopingAgainWithTheSamePathsGivesTheSameStore() {
    let store = Store(initialState: TwoCounters.State()) { TwoCounters() }
    let second = store.scope(state: \.second, action: \.second)
    #expect(second === store.scope(state: \.second, action: \.second))
    #expect(second !== store.scope(state: \.first, action: \.first))
  }

  @Test func aStoreDoesNotKeepTheStoresScopedFromIt() {
    let store = Store(initialState: TwoCounters.State()) { TwoCounters() }
    weak var first: StoreOf<Counter>?
    do {
      let scoped = store.scope(state: \.first, action: \.first)
      first = scoped
      scoped.send(.incrementButtonTapped)
    }
    #expect(first == nil)
    #expect(store.first.count == 1)
  }
}
