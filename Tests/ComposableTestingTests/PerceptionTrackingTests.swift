import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func perceptionTrackingHearsTheStoresNextChange() {
  let store = Store(initialState: Counter.State()) { Counter() }
  let changed = LockIsolated(false)
  let count = withPerceptionTracking {
    store.count
  } onChange: {
    changed.setValue(true)
  }
  #expect(count == 0)
  store.send(.incrementButtonTapped)
  #expect(changed.value)
}

@Test
func perceptionTrackingWithoutOnChangeRunsItsBody() {
  let store = Store(initialState: Counter.State(count: 3)) { Counter() }
  let count = withPerceptionTracking { store.count }
  #expect(count == 3)
}
