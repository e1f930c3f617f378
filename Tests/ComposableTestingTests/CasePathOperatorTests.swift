import ComposableArchitecture
import ComposableTesting
import Testing

/// A parent that scopes its children the way features did before case key paths.
private struct Parent: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    @PresentationState var child: Counter.State?
    var destination: Destination = .none
  }
  enum Destination: Equatable {
    case none
    case counter(Counter.State)
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case child(PresentationAction<Counter.Action>)
    case showChild
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: /Action.counter) {
      Counter()
    }
    Reduce { state, action in
      if case .showChild = action { state.child = Counter.State() }
      return .none
    }
    .ifLet(\.$child, action: /Action.child) {
      Counter()
    }
  }
}

@Test
func slashCasePathEmbedsAndExtracts() {
  let path = /Parent.Action.counter
  #expect(path.embed(.incrementButtonTapped) == .counter(.incrementButtonTapped))
  #expect(path.extract(from: .counter(.decrementButtonTapped)) == .decrementButtonTapped)
  #expect(path.extract(from: .showChild) == nil)

  let tap = /Parent.Action.showChild
  #expect(tap.extract(from: .showChild) != nil)
  #expect(tap.extract(from: .counter(.incrementButtonTapped)) == nil)
}

@Test
func slashCasePathsScopeReducers() async {
  let store = TestStore(initialState: Parent.State()) { Parent() }
  await store.send(.counter(.incrementButtonTapped)) {
    $0.counter.count = 1
  }
  await store.send(.showChild) {
    $0.child = Counter.State()
  }
  await store.send(.child(.presented(.incrementButtonTapped))) {
    $0.child?.count = 1
  }
}

@Test
func modifyChangesTheCaseInPlace() throws {
  var destination = Parent.Destination.counter(Counter.State())
  try (/Parent.Destination.counter).modify(&destination) {
    $0.count = 5
  }
  #expect(destination == .counter(Counter.State(count: 5)))

  var none = Parent.Destination.none
  #expect(throws: ExtractionFailed.self) {
    try (/Parent.Destination.counter).modify(&none) { $0.count = 5 }
  }
}

/// A feature whose state is an enum, scoped with `ifCaseLet` and case paths.
private struct Screen: Reducer {
  enum State: Equatable {
    case counter(Counter.State)
    case empty
  }
  enum Action: Equatable {
    case counter(Counter.Action)
    case clear
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .clear = action { state = .empty }
      return .none
    }
    .ifCaseLet(/State.counter, action: /Action.counter) {
      Counter()
    }
  }
}

@Test
func ifCaseLetWithCasePaths() async {
  let store = TestStore(initialState: Screen.State.counter(Counter.State())) { Screen() }
  await store.send(.counter(.incrementButtonTapped)) {
    try (/Screen.State.counter).modify(&$0) { $0.count = 1 }
  }
  await store.send(.clear) {
    $0 = .empty
  }
}

/// Counters in a stack, in a list and behind an alert, each reached by a case path.
private struct Counters: Reducer {
  struct State: Equatable {
    var path = StackState<Counter.State>()
    var rows: IdentifiedArrayOf<Row> = []
    var alert: AlertState<AlertAction>?
  }
  struct Row: Equatable, Identifiable {
    let id: Int
    var counter = Counter.State()
  }
  enum AlertAction: Equatable {
    case ok
  }
  enum Action: Equatable {
    case alert(AlertAction)
    case path(StackAction<Counter.State, Counter.Action>)
    case row(id: Int, action: Counter.Action)
  }

  var body: some Reducer<State, Action> {
    EmptyReducer()
      .forEach(\.path, action: /Action.path) {
        Counter()
      }
      .forEach(\.rows, action: /Action.row) {
        Reduce { row, action in
          row.counter.count += action == .incrementButtonTapped ? 1 : -1
          return .none
        }
      }
      .ifLet(\.alert, action: /Action.alert)
  }
}

@Test
func slashCasePathsReachStacksAndLists() async {
  let store = TestStore(initialState: Counters.State(rows: [Counters.Row(id: 7)])) { Counters() }
  await store.send(.path(.push(id: 0, state: Counter.State()))) {
    $0.path[id: 0] = Counter.State()
  }
  await store.send(.path(.element(id: 0, action: .incrementButtonTapped))) {
    $0.path[id: 0]?.count = 1
  }
  await store.send(.row(id: 7, action: .decrementButtonTapped)) {
    $0.rows[id: 7]?.counter.count = -1
  }
}

@Test
func slashCasePathsDismissAlertsInOptionalState() async {
  let alert = AlertState<Counters.AlertAction> { TextState("Saved") } actions: {
    ButtonState(action: .ok) { TextState("OK") }
  }
  let store = TestStore(initialState: Counters.State(alert: alert)) { Counters() }
  await store.send(.alert(.ok)) {
    $0.alert = nil
  }
}

/// A feature whose alert offers to show itself again.
private struct Reminder: Reducer {
  struct State: Equatable {
    var alert: AlertState<AlertAction>?
  }
  enum AlertAction: Equatable {
    case again
    case ok
  }
  enum Action: Equatable {
    case alert(AlertAction)
  }

  static let alert = AlertState<AlertAction> { TextState("Drink water") } actions: {
    ButtonState(action: .again) { TextState("Remind me again") }
    ButtonState(action: .ok) { TextState("OK") }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .alert(.again) { state.alert = Self.alert }
      return .none
    }
    .ifLet(\.alert, action: /Action.alert)
  }
}

@Test
func anAlertThatItsOwnActionPresentsAgainStays() async {
  let store = TestStore(initialState: Reminder.State(alert: Reminder.alert)) { Reminder() }
  await store.send(.alert(.again))
  await store.send(.alert(.ok)) {
    $0.alert = nil
  }
}
