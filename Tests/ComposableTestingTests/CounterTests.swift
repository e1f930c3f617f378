import ComposableArchitecture
import ComposableTesting
import Testing

/// The seed's counter test, as written there.
@Test
func testCounter() async {
  let store = TestStore(initialState: Counter.State()) {
    Counter()
  }

  await store.send(.incrementButtonTapped) {
    $0.count = 1
  }

  await store.send(.incrementButtonTapped) {
    $0.count = 2
  }

  await store.send(.decrementButtonTapped) {
    $0.count = 1
  }
}

@Test
func stateIsReadable() async {
  let store = TestStore(initialState: Counter.State(count: 41)) { Counter() }
  await store.send(.incrementButtonTapped) { $0.count = 42 }
  #expect(store.state.count == 42)
}

@MainActor
@Test
func worksFromTheMainActor() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  await store.send(.incrementButtonTapped) { $0.count = 1 }
  await store.finish()
}
