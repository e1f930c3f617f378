import ComposableArchitecture

/// A parent of a counter and a list of todos, with one internal case.
@Reducer
struct App {
  @ObservableState
  struct State: Equatable {
    var counter = Counter.State()
    var todos: IdentifiedArrayOf<Todo.State> = []
  }

  enum Action {
    case counter(Counter.Action)
    case todos(IdentifiedActionOf<Todo>)
    @Internal case timerTicked
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .counter(action):
        return Counter().reduce(into: &state.counter, action: action).map(Action.counter)
      case .todos, .timerTicked:
        return .none
      }
    }
  }
}
