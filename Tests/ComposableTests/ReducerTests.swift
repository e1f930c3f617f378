import Composable
import Foundation
import Testing

/// A parent with an optional child whose effect runs until cancelled.
private struct Sheet: Reducer {
  struct State: Equatable { var child: Counter.State? }
  enum Action: Equatable { case child(Counter.Action), present, dismiss }

  static let child = AnyCasePath<Action, Counter.Action>(
    embed: Action.child, extract: { if case let .child(a) = $0 { a } else { nil } })

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .present: state.child = Counter.State()
      case .dismiss: state.child = nil
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: Self.child) {
      Reduce { state, _ in
        state.count += 1
        return .run { _ in try await Task.sleep(for: .seconds(60)) }
      }
    }
  }
}

@Suite struct ReducerTests {
  @Test func scopeRunsTheChildOnlyForItsActions() {
    let store = Store(initialState: TwoCounters.State()) { TwoCounters() }
    store.send(.first(.incrementButtonTapped))
    store.send(.second(.decrementButtonTapped))
    #expect(store.first.count == 1)
    #expect(store.second.count == -1)
  }

  @Test func builderRunsReducersInOrderAndCombineReducersGroupsThem() {
    let store = Store(initialState: [String]()) {
      CombineReducers {
        Reduce<[String], Int> { state, _ in state.append("first"); return .none }
        EmptyReducer()
        Reduce<[String], Int> { state, _ in state.append("second"); return .none }
      }
      for index in 0..<2 {
        Reduce<[String], Int> { state, _ in state.append("loop \(index)"); return .none }
      }
      if Bool.random() {
        Reduce<[String], Int> { state, _ in state.append("either"); return .none }
      } else {
        Reduce<[String], Int> { state, _ in state.append("either"); return .none }
      }
    }
    store.send(1)
    #expect(store.withState { $0 } == ["first", "second", "loop 0", "loop 1", "either"])
  }

  @Test func builderTakesAReducerOfExistentialType() {
    let reducer = CombineReducers {
      Counter()
      Counter() as any ReducerOf<Counter>
    }
    let store = Store(initialState: Counter.State()) { reducer }
    store.send(.incrementButtonTapped)
    #expect(store.count == 2)
  }

  @Test func ifLetRunsTheChildWhilePresentAndCancelsItsEffectsOnDismiss() async {
    let store = Store(initialState: Sheet.State()) { Sheet() }
    store.send(.present)
    let childTask = store.send(.child(.incrementButtonTapped))
    #expect(store.child?.count == 1)
    #expect(store.runningEffectCount == 1)
    store.send(.dismiss)
    await childTask.finish()
    #expect(childTask.isCancelled)
    #expect(store.runningEffectCount == 0)
  }

  @Test func ifLetReportsAChildActionWhileAbsent() async {
    let issues = IssueCollector()
    await issues.collect {
      let store = Store(initialState: Sheet.State()) { Sheet() }
      store.send(.child(.incrementButtonTapped))
    }
    #expect(issues.reported.count == 1)
    #expect(issues.reported.first?.contains("while the child state was nil") == true)
  }

  @Test func forEachRunsTheElementByIDAndCancelsEffectsOfRemovedElements() async {
    struct List: Reducer {
      struct State: Equatable { var rows: IdentifiedArrayOf<Todo.State> }
      enum Action: Equatable { case rows(IdentifiedActionOf<Todo>), remove(UUID) }
      static let rows = AnyCasePath<Action, IdentifiedActionOf<Todo>>(
        embed: Action.rows, extract: { if case let .rows(a) = $0 { a } else { nil } })
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          if case let .remove(id) = action { state.rows.remove(id: id) }
          return .none
        }
        .forEach(\.rows, action: Self.rows) {
          Reduce { state, _ in
            state.isComplete.toggle()
            return .run { _ in try await Task.sleep(for: .seconds(60)) }
          }
        }
      }
    }
    let first = UUID(), second = UUID()
    let store = Store(initialState: List.State(rows: [Todo.State(id: first), Todo.State(id: second)])) {
      List()
    }
    let firstTask = store.send(.rows(.element(id: first, action: .toggled)))
    let secondTask = store.send(.rows(.element(id: second, action: .toggled)))
    #expect(store.rows.map(\.isComplete) == [true, true])
    store.send(.remove(first))
    await firstTask.finish()
    #expect(firstTask.isCancelled)
    #expect(!secondTask.isCancelled)
    #expect(store.runningEffectCount == 1)
    secondTask.cancel()
  }

  @Test func forEachWithCaseKeyPaths() {
    let store = Store(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.addButtonTapped)
    store.send(.addButtonTapped)
    let id = store.todos[1].id
    store.send(.todos(.element(id: id, action: .toggled)))
    store.send(.todos(.element(id: id, action: .titleChanged("Milk"))))
    #expect(store.todos[id: id]?.title == "Milk")
    store.send(.clearCompletedButtonTapped)
    #expect(store.todos.count == 1)
    #expect(store.todos[0].id == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
  }

  @Test func onChangeRunsWhenTheValueChanges() {
    let store = Store(initialState: [Int]()) {
      Reduce<[Int], Int> { state, value in
        state.append(value)
        return .none
      }
      .onChange(of: { $0.count.isMultiple(of: 2) }) { old, new in
        Reduce { state, _ in
          state.append(new ? 100 : -100)
          return .none
        }
      }
    }
    store.send(1)
    #expect(store.withState { $0 } == [1, -100])
    store.send(2)
    #expect(store.withState { $0 } == [1, -100, 2, -100], "the count went from even to odd again")
  }

  @Test func onChangeWithRemoveDuplicatesComparesAsItSays() {
    let store = Store(initialState: [Int]()) {
      Reduce<[Int], Int> { state, value in
        state.append(value)
        return .none
      }
      .onChange(of: { ($0.count, $0.last ?? 0) }, removeDuplicates: { $0.1 == $1.1 }) { _, new in
        Reduce { state, _ in
          state.append(new.1 * 10)
          return .none
        }
      }
    }
    store.send(1)
    #expect(store.withState { $0 } == [1, 10])
    store.send(10)
    #expect(store.withState { $0 } == [1, 10, 10], "the last element is the same, whatever the count")
  }

  @Test func bindingReducerSetsTheField() {
    struct Form: Reducer {
      struct State: Equatable { var name = ""; var age = 0 }
      enum Action: BindableAction { case binding(BindingAction<State>) }
      var body: some ReducerOf<Self> { BindingReducer() }
    }
    let store = Store(initialState: Form.State()) { Form() }
    store.send(.binding(.set(\.name, "Blob")))
    store.send(.set(\.age, 42))
    #expect(store.withState { $0 } == Form.State(name: "Blob", age: 42))
    #expect(BindingAction<Form.State>.set(\.age, 1) == .set(\.age, 1))
    #expect(BindingAction<Form.State>.set(\.age, 1) != .set(\.age, 2))
    switch BindingAction<Form.State>.set(\.name, "x") {
    case \.age: Issue.record("matched the wrong field")
    case \.name: break
    default: Issue.record("matched no field")
    }
  }

  @Test func dependencyOverridesApplyToTheReducerAndItsEffects() async {
    struct Feature: Reducer {
      struct State: Equatable { var ids: [UUID] = [] }
      enum Action: Equatable { case tap, add(UUID) }
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .tap:
          state.ids.append(uuid())
          return .run { send in await send(.add(uuid())) }
        case let .add(id):
          state.ids.append(id)
          return .none
        }
      }
    }
    let fixed = UUID()
    let store = Store(initialState: Feature.State()) {
      Feature().dependency(\.uuid, .constant(fixed))
    }
    await store.send(.tap).finish()
    #expect(store.ids == [fixed, fixed])
  }

  @Test func printChangesPrintsTheActionAndADiff() {
    let lines = Recorder<String>()
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges { lines.record($0) }
    }
    store.send(.incrementButtonTapped)
    let output = lines.values.joined()
    #expect(output.contains("received action:"))
    #expect(output.contains("incrementButtonTapped"))
    #expect(output.contains("- "))
    #expect(output.contains("+ "))
  }
}
