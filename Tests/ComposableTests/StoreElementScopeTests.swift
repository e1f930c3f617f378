import Composable
import Foundation
import Testing

/// `store.scope(state: \.todos, action: \.todos)`: a store per element of a collection.
@Suite struct StoreElementScopeTests {
  @Test func eachElementHasAStoreThatSendsItsElementsActions() {
    let store = Store(
      initialState: Todos.State(todos: [Todo.State(id: UUID(0)), Todo.State(id: UUID(1))])
    ) {
      Todos()
    }
    let todos = Array(store.scope(state: \.todos, action: \.todos))
    #expect(todos.map(\.id) == [UUID(0), UUID(1)])

    todos[1].send(.toggled)
    #expect(todos[1].isComplete)
    #expect(store.todos.map(\.isComplete) == [false, true])
  }

  @Test func scopingAgainGivesTheSameElementStores() {
    let store = Store(initialState: Todos.State(todos: [Todo.State(id: UUID(0))])) { Todos() }
    let first = Array(store.scope(state: \.todos, action: \.todos))
    let second = Array(store.scope(state: \.todos, action: \.todos))
    #expect(first[0] === second[0])
  }

  @Test func anElementsStoreKeepsItsLastStateOnceRemoved() {
    let store = Store(initialState: Todos.State(todos: [Todo.State(id: UUID(0))])) { Todos() }
    let todo = Array(store.scope(state: \.todos, action: \.todos))[0]
    todo.send(.titleChanged("Milk"))
    todo.send(.toggled)
    store.send(.clearCompletedButtonTapped)
    #expect(store.todos.isEmpty)
    #expect(todo.title == "Milk")
  }
}
