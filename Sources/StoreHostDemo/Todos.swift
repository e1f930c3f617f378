import ComposableArchitecture
import Foundation

/// One to-do: a title and whether it is done, both set by bindings.
@Reducer
public struct Todo {
  @ObservableState
  public struct State: Equatable, Codable, Identifiable, Sendable {
    public let id: UUID
    @BindingState public var title = ""
    @BindingState public var isComplete = false

    public init(id: UUID, title: String = "", isComplete: Bool = false) {
      self.id = id
      self.title = title
      self.isComplete = isComplete
    }
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

/// A to-do list: add from a text field (a binding), toggle, delete, filter, clear completed.
@Reducer
public struct Todos {
  /// Which to-dos the list shows.
  public enum Filter: String, Codable, CaseIterable, Sendable {
    case all, active, completed
  }

  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    @BindingState public var newTodoText = ""
    @BindingState public var filter = Filter.all
    public var todos: IdentifiedArrayOf<Todo.State> = []

    public init() {}

    /// The to-dos that pass the filter.
    public var filteredTodos: [Todo.State] {
      switch filter {
      case .all: todos.elements
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case addButtonTapped
    case binding(BindingAction<State>)
    case clearCompletedButtonTapped
    case deleteButtonTapped(id: UUID)
    case todos(IdentifiedActionOf<Todo>)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        let title = state.newTodoText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return .none }
        state.todos.append(Todo.State(id: uuid(), title: String(title.prefix(200))))
        state.newTodoText = ""
        return .none
      case .binding:
        return .none
      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none
      case let .deleteButtonTapped(id):
        state.todos.remove(id: id)
        return .none
      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
  }
}
