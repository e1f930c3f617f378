// Key-path sends and receives as TCA's documentation writes them (see DependencySnippets.swift).
import ComposableArchitecture
import ComposableTesting
import Observation
import Synchronization
import Testing

@Reducer
struct CounterFeature {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }

  enum Action {
    case incrementButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

@Reducer
struct TwoCountersFeature {
  @ObservableState
  struct State: Equatable {
    var counter1 = CounterFeature.State()
    var counter2 = CounterFeature.State()
  }

  enum Action {
    case counter1(CounterFeature.Action)
    case counter2(CounterFeature.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter1, action: \.counter1) { CounterFeature() }
    Scope(state: \.counter2, action: \.counter2) { CounterFeature() }
  }
}

@Reducer
struct SliderFeature {
  @ObservableState
  struct State: Equatable {
    var sliderValue = 0.0
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

@MainActor
struct KeyPathSnippetTests {
  @Test func storeSendsByCaseKeyPath() {
    let store = Store(initialState: TwoCountersFeature.State()) { TwoCountersFeature() }
    store.send(\.counter1.incrementButtonTapped)
    store.send(\.counter2.incrementButtonTapped)
    store.send(\.counter2.incrementButtonTapped)
    #expect(store.counter1.count == 1)
    #expect(store.counter2.count == 2)
  }

  @Test func testStoreSendsByCaseKeyPath() async {
    let store = TestStore(initialState: TwoCountersFeature.State()) { TwoCountersFeature() }
    await store.send(\.counter1.incrementButtonTapped) { $0.counter1.count = 1 }
    await store.send(\.counter2.incrementButtonTapped) { $0.counter2.count = 1 }
  }

  @Test func bindingsSendByKeyPathWithTheirValue() async {
    let store = TestStore(initialState: SliderFeature.State()) { SliderFeature() }
    await store.send(\.binding.sliderValue, 2) { $0.sliderValue = 2 }
    let plain = Store(initialState: SliderFeature.State()) { SliderFeature() }
    plain.send(\.binding.sliderValue, 0.5)
    #expect(plain.sliderValue == 0.5)
  }

  @Test func receiveByTheSuccessCaseOfAResult() async {
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is the answer." }
    }
    await store.send(.factButtonTapped)
    await store.receive(\.factResponse.success) { $0.fact = "42 is the answer." }
  }
}

@Test func storeIsObservable() {
  let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
  let changes = Mutex(0)
  let count = withObservationTracking {
    store.count
  } onChange: {
    changes.withLock { $0 += 1 }
  }
  #expect(count == 0)
  #expect(changes.withLock { $0 } == 0)
  store.send(.incrementButtonTapped)
  #expect(changes.withLock { $0 } == 1)
  // Tracking is one-shot, as with any Observable: a second change goes unheard.
  store.send(.incrementButtonTapped)
  #expect(changes.withLock { $0 } == 1)
  #expect(store.count == 2)
}
