// Feature shapes from TCA's case studies: a recursive feature, an alert answered while the
// parent presents another, the settable store member, `Identified`.
import ComposableArchitecture
import Testing

@Reducer
struct Nested {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: Int
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
  }

  enum Action {
    case addRowButtonTapped
    case nameChanged(String)
    indirect case rows(IdentifiedActionOf<Nested>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: state.rows.count + 1))
        return .none
      case let .nameChanged(name):
        state.name = name
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) { Self() }
  }
}

@Reducer
struct Deletion {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    var deleted = 0
  }

  enum Action {
    case alert(PresentationAction<Alert>)
    case deleteButtonTapped

    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        state.deleted += 1
        // Confirming asks again, for the next one.
        state.alert = Self.confirmation
        return .none
      case .alert:
        return .none
      case .deleteButtonTapped:
        state.alert = Self.confirmation
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  static var confirmation: AlertState<Action.Alert> {
    AlertState { TextState("Delete?") } actions: {
      ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) { TextState("Delete") }
    }
  }
}

@Reducer
struct Greeting {
  @ObservableState
  struct State: Equatable {
    var nombre = ""
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

@Reducer
struct TwoFactorForm {
  @ObservableState
  struct State: Equatable {
    var code = ""
    var isFormValid = false
  }

  enum Action: ViewAction {
    case view(View)

    enum View: BindableAction {
      case binding(BindingAction<State>)
      case submitButtonTapped
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding):
        state.isFormValid = state.code.count >= 4
        return .none
      case .view(.submitButtonTapped):
        return .none
      }
    }
  }
}

/// A request that a newer one cancels: TCA's Search, with a test clock's zero sleep.
@Reducer
struct Forecasts {
  @ObservableState
  struct State: Equatable {
    var inFlight: Int?
    var forecast: String?
  }

  enum Action {
    case cityTapped(Int)
    case forecastResponse(Int, String)
  }

  @Dependency(\.continuousClock) var clock
  enum CancelID { case forecast }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .cityTapped(city):
        state.inFlight = city
        return .run { send in
          try await clock.sleep(for: .seconds(0))
          await send(.forecastResponse(city, "Sunny in \(city)"))
        }
        .cancellable(id: CancelID.forecast, cancelInFlight: true)
      case let .forecastResponse(_, forecast):
        state.inFlight = nil
        state.forecast = forecast
        return .none
      }
    }
  }
}

@MainActor
struct FeatureShapeSnippetTests {
  @Test func partOfATestAssertsLess() async {
    let store = TestStore(initialState: Forecasts.State()) {
      Forecasts()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.withExhaustivity(.off) {
      await store.send(.cityTapped(1))
      await store.receive(\.forecastResponse) {
        $0.forecast = "Sunny in 1"
      }
    }
    #expect(store.exhaustivity == .on)
  }

  @Test func aZeroSleepOnATestClockWaitsForTheClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Forecasts.State()) {
      Forecasts()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.cityTapped(1)) { $0.inFlight = 1 }
    await store.send(.cityTapped(2)) { $0.inFlight = 2 }
    await clock.advance()
    await store.receive(\.forecastResponse) {
      $0.inFlight = nil
      $0.forecast = "Sunny in 2"
    }
  }

  @Test func aViewActionsBindingsSetTheState() async {
    let store = TestStore(initialState: TwoFactorForm.State()) { TwoFactorForm() }
    await store.send(\.view.binding.code, "123") {
      $0.code = "123"
    }
    await store.send(\.view.binding.code, "1234") {
      $0.code = "1234"
      $0.isFormValid = true
    }
    await store.send(\.view.submitButtonTapped)
  }

  @Test func aRecursiveFeatureIsBuiltAsDeepAsItsState() async {
    let store = TestStore(initialState: Nested.State(id: 0)) { Nested() }
    await store.send(.addRowButtonTapped) {
      $0.rows.append(Nested.State(id: 1))
    }
    await store.send(\.rows[id: 1].addRowButtonTapped) {
      $0.rows[id: 1]?.rows.append(Nested.State(id: 1))
    }
    await store.send(\.rows[id: 1].rows[id: 1].nameChanged, "Blob") {
      $0.rows[id: 1]?.rows[id: 1]?.name = "Blob"
    }
  }

  @Test func anAlertsActionDismissesOnlyTheAlertThatSentIt() async {
    let store = TestStore(initialState: Deletion.State()) { Deletion() }
    await store.send(.deleteButtonTapped) {
      $0.alert = Deletion.confirmation
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.deleted = 1
    }
    #expect(store.state.alert == Deletion.confirmation)
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
  }

  @Test func settingAStoreMemberSendsABindingAction() {
    let store = Store(initialState: Greeting.State()) { Greeting() }
    store.nombre = "Blob"
    #expect(store.nombre == "Blob")
  }

  @Test func settingAStoreMemberIsTheBindingActionInATestStore() async {
    let store = TestStore(initialState: Greeting.State()) { Greeting() }
    await store.send(\.binding.nombre, "Blob") {
      $0.nombre = "Blob"
    }
  }

  @Test func identifiedReadsThroughToItsValue() {
    var selection = Identified(ItemCounter.State(count: 1), id: "row-1")
    selection.count += 1
    #expect(selection.id == "row-1")
    #expect(selection.value == ItemCounter.State(count: 2))
  }
}
