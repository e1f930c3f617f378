import ComposableArchitecture
import Foundation
import Testing

import StoreHostDemo

/// The demo's counter, a deploy later: it gained a step.
@ObservableState
private struct CounterNextBuild: Codable, Equatable {
  var count = 0
  var step = 1
}

/// The demo's to-do list, a deploy later: each to-do gained a priority.
@ObservableState
private struct TodosNextBuild: Codable, Equatable {
  var newTodoText = ""
  var filter = Todos.Filter.all
  var todos: IdentifiedArrayOf<TodoNextBuild> = []
}

@ObservableState
private struct TodoNextBuild: Codable, Equatable, Identifiable {
  let id: UUID
  var title = ""
  var isComplete = false
  var priority = 0
}

/// Sessions the demo saved survive a deploy that adds fields, and a rollback from it.
@Suite struct DemoStateEvolutionTests {
  private let first = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
  private let second = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!

  @Test func aSavedCounterGainsItsStepsDefault() throws {
    let saved = try JSONEncoding.encode(Counter.State(count: 4))
    #expect(try JSONDecoder().decode(CounterNextBuild.self, from: Data(saved)) == CounterNextBuild(count: 4, step: 1))
  }

  @Test func savedTodosInAnIdentifiedArrayGainTheirPrioritysDefault() throws {
    var todos = Todos.State()
    todos.filter = .active
    todos.todos = [Todo.State(id: first, title: "Milk", isComplete: true), Todo.State(id: second, title: "Eggs")]
    let restored = try JSONDecoder().decode(TodosNextBuild.self, from: Data(try JSONEncoding.encode(todos)))
    #expect(restored.filter == .active)
    #expect(
      restored.todos == [
        TodoNextBuild(id: first, title: "Milk", isComplete: true, priority: 0),
        TodoNextBuild(id: second, title: "Eggs", priority: 0),
      ])
    // Rolled back, the build without priorities reads what the newer one saved.
    var newer = restored
    newer.todos[id: second]?.priority = 2
    let rolledBack = try JSONDecoder().decode(Todos.State.self, from: Data(try JSONEncoding.encode(newer)))
    #expect(rolledBack == todos)
  }

  @Test func anAppStateSavedBeforeAnyFeatureExistedIsTheInitialState() throws {
    #expect(try JSONDecoder().decode(AppFeature.State.self, from: Data("{}".utf8)) == AppFeature.State())
    let partial = try JSONDecoder().decode(AppFeature.State.self, from: Data(#"{"counter":{"count":9},"retired":{}}"#.utf8))
    #expect(partial.counter.count == 9 && partial.todos == Todos.State())
  }
}
