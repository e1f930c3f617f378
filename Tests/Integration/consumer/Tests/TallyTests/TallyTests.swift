import ComposableArchitecture
import ComposableTesting
import Tally
import Testing

@MainActor
struct TallyTests {
  @Test func incrementsThenResets() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.resetButtonTapped) { $0.count = 0 }
  }
}
