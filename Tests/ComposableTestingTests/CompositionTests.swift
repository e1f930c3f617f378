import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

@Test
func twoCountersChangeIndependently() async {
  let store = TestStore(initialState: TwoCounters.State()) { TwoCounters() }
  await store.send(.first(.incrementButtonTapped)) { $0.first.count = 1 }
  await store.send(.second(.decrementButtonTapped)) { $0.second.count = -1 }
  await store.send(.first(.incrementButtonTapped)) { $0.first.count = 2 }
}

@Test
func todosAddToggleDelete() async {
  let store = TestStore(initialState: Todos.State()) {
    Todos()
  } withDependencies: {
    $0.uuid = .incrementing
  }

  await store.send(.addTodoButtonTapped) {
    $0.todos.insert(Todo.State(id: UUID(0)), at: 0)
  }
  await store.send(.addTodoButtonTapped) {
    $0.todos.insert(Todo.State(id: UUID(1)), at: 0)
  }
  await store.send(.todos(.element(id: UUID(0), action: .descriptionChanged("Milk")))) {
    $0.todos[id: UUID(0)]?.description = "Milk"
  }
  await store.send(.todos(.element(id: UUID(0), action: .toggleCompleted))) {
    $0.todos[id: UUID(0)]?.isComplete = true
  }
  await store.send(.delete(id: UUID(1))) {
    $0.todos.remove(id: UUID(1))
  }
  #expect(store.state.todos.ids == [UUID(0)])
}
