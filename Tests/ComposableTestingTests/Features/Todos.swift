import ComposableArchitecture
import Foundation

/// One to-do.
struct Todo: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var description = ""
    var isComplete = false
  }

  enum Action: Equatable {
    case descriptionChanged(String)
    case toggleCompleted
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .descriptionChanged(description):
      state.description = description
    case .toggleCompleted:
      state.isComplete.toggle()
    }
    return .none
  }
}

/// A list of to-dos: new ones get their id from the uuid dependency.
struct Todos: Reducer {
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
  }

  enum Action: Equatable {
    case addTodoButtonTapped
    case delete(id: UUID)
    case todos(IdentifiedActionOf<Todo>)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none
      case let .delete(id):
        state.todos.remove(id: id)
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
      AnyCasePath(embed: { .todos($0) }, extract: { if case let .todos(action) = $0 { action } else { nil } })
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
