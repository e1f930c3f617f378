import Composable
import Foundation

/// The seed's Counter, with a hand-written case path conformance (no macros).
struct Counter: Reducer {
  struct State: Equatable, Codable {
    var count = 0
  }

  enum Action: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

extension Counter.Action: CasePathable {
  struct AllCasePaths {
    var decrementButtonTapped: AnyCasePath<Counter.Action, Void> {
      AnyCasePath(embed: { .decrementButtonTapped }) {
        if case .decrementButtonTapped = $0 { () } else { nil }
      }
    }
    var incrementButtonTapped: AnyCasePath<Counter.Action, Void> {
      AnyCasePath(embed: { .incrementButtonTapped }) {
        if case .incrementButtonTapped = $0 { () } else { nil }
      }
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// Two counters side by side, each scoped.
struct TwoCounters: Reducer {
  struct State: Equatable {
    var first = Counter.State()
    var second = Counter.State()
  }

  enum Action: Equatable {
    case first(Counter.Action)
    case second(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.first, action: \.first) { Counter() }
    Scope(state: \.second, action: \.second) { Counter() }
  }
}

extension TwoCounters.Action: CasePathable {
  struct AllCasePaths {
    var first: AnyCasePath<TwoCounters.Action, Counter.Action> {
      AnyCasePath(embed: TwoCounters.Action.first) { if case let .first(a) = $0 { a } else { nil } }
    }
    var second: AnyCasePath<TwoCounters.Action, Counter.Action> {
      AnyCasePath(embed: TwoCounters.Action.second) { if case let .second(a) = $0 { a } else { nil } }
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// One to-do item.
struct Todo: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var title = ""
    var isComplete = false
  }

  enum Action: Equatable {
    case toggled
    case titleChanged(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggled:
      state.isComplete.toggle()
    case let .titleChanged(title):
      state.title = title
    }
    return .none
  }
}

extension Todo.Action: CasePathable {
  struct AllCasePaths {
    var toggled: AnyCasePath<Todo.Action, Void> {
      AnyCasePath(embed: { .toggled }) { if case .toggled = $0 { () } else { nil } }
    }
    var titleChanged: AnyCasePath<Todo.Action, String> {
      AnyCasePath(embed: Todo.Action.titleChanged) { if case let .titleChanged(t) = $0 { t } else { nil } }
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// A list of to-dos: add, per-element actions, delete completed.
struct Todos: Reducer {
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
  }

  enum Action: Equatable {
    case addButtonTapped
    case clearCompletedButtonTapped
    case todos(IdentifiedActionOf<Todo>)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.todos.append(Todo.State(id: uuid()))
        return .none
      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none
      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
  }
}

extension Todos.Action: CasePathable {
  struct AllCasePaths {
    var todos: AnyCasePath<Todos.Action, IdentifiedActionOf<Todo>> {
      AnyCasePath(embed: Todos.Action.todos) { if case let .todos(a) = $0 { a } else { nil } }
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
