import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func numberFactIsFetchedThroughTheClient() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0) is a good number." }
  }

  await store.send(.incrementButtonTapped) { $0.count = 1 }
  await store.send(.factButtonTapped) { $0.isLoading = true }
  await store.receive(.factResponse("1 is a good number.")) {
    $0.fact = "1 is a good number."
    $0.isLoading = false
  }
}

@Test
func receiveByCaseAndByCaseAndValue() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0) is a good number." }
  }

  await store.send(.factButtonTapped) { $0.isLoading = true }
  await store.receive(\.factResponse) {
    $0.fact = "0 is a good number."
    $0.isLoading = false
  }
  await store.send(.factButtonTapped) {
    $0.fact = nil
    $0.isLoading = true
  }
  await store.receive(\.factResponse, "0 is a good number.") {
    $0.fact = "0 is a good number."
    $0.isLoading = false
  }
}

@Test
func dependenciesCanChangeBetweenSteps() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { _ in "first" }
  }

  await store.send(.factButtonTapped) { $0.isLoading = true }
  await store.receive(\.factResponse, "first") {
    $0.fact = "first"
    $0.isLoading = false
  }
  store.dependencies.numberFact.fetch = { _ in "second" }
  await store.send(.factButtonTapped) {
    $0.fact = nil
    $0.isLoading = true
  }
  await store.receive(\.factResponse, "second") {
    $0.fact = "second"
    $0.isLoading = false
  }
}

@Test
func sendReturnsATaskToAwait() async {
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0)" }
  }

  let task = await store.send(.factButtonTapped) { $0.isLoading = true }
  await task.finish()
  await store.receive(\.factResponse) {
    $0.fact = "0"
    $0.isLoading = false
  }
}

@Test
func actionsOfSendEffectsAreReceivedInOrder() async {
  let store = TestStore(initialState: Counter.State()) {
    Reduce<Counter.State, Counter.Action> { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .send(.decrementButtonTapped)
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      }
    }
  }

  await store.send(.incrementButtonTapped) { $0.count = 1 }
  await store.receive(.decrementButtonTapped) { $0.count = 0 }
}
