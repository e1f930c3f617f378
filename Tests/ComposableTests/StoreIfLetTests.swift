import Composable
import Testing

/// `store.ifLet(then:else:)`, TCA's older way to follow optional state.
@Suite struct StoreIfLetTests {
  @available(*, deprecated)
  @Test func ifLetFollowsTheStateAsItComesAndGoes() {
    let store = Store(initialState: Int?.none) {
      Reduce<Int?, Int?> { state, action in
        state = action
        return .none
      }
    }
    let events = LockIsolated<[String]>([])
    let observation = store.ifLet { child in
      events.withValue { $0.append("then \(child.withState { $0 })") }
      child.send(2)
    } else: {
      events.withValue { $0.append("else") }
    }
    store.send(1)
    store.send(3)
    store.send(nil)
    observation.cancel()
    store.send(4)
    #expect(events.value == ["else", "then 1", "else"])
    #expect(store.withState { $0 } == 4)
  }
}
