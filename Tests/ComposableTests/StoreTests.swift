import Composable
import Foundation
import Testing

@Suite struct StoreTests {
  @Test func sendReducesTheAction() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    store.send(.decrementButtonTapped)
    #expect(store.count == 1)
    #expect(store.withState(\.count) == 1)
  }

  @Test func versionGrowsOnlyWhenEquatableStateChanges() {
    let store = Store(initialState: Counter.State()) {
      Reduce<Counter.State, Counter.Action> { state, action in
        if action == .incrementButtonTapped { state.count += 1 }
        return .none
      }
    }
    store.send(.incrementButtonTapped)
    store.send(.decrementButtonTapped)
    #expect(store.snapshot.version == 1)
    store.send(.incrementButtonTapped)
    #expect(store.snapshot.version == 2)
  }

  @Test func theReducerIsBuiltWithTheStoresDependencies() {
    struct Stamp: Reducer {
      let id: UUID
      var body: some Reducer<UUID?, Void> {
        Reduce { state, _ in
          state = id
          return .none
        }
      }
    }
    @Dependency(\.uuid) var uuid
    let store = Store(initialState: nil) {
      Stamp(id: uuid())
    } withDependencies: {
      $0.uuid = .constant(UUID(0))
    }
    store.send(())
    #expect(store.withState { $0 } == UUID(0))
  }

  @Test func scopedStoreReadsAndSendsThroughItsParent() {
    let store = Store(initialState: TwoCounters.State()) { TwoCounters() }
    let second = store.scope(state: \.second, action: \.second)
    second.send(.incrementButtonTapped)
    second.send(.incrementButtonTapped)
    #expect(second.count == 2)
    #expect(store.second.count == 2)
    #expect(store.first.count == 0)
  }

  @Test func scopingOptionalStateGivesNilWhileAbsent() {
    struct Parent: Reducer {
      struct State: Equatable { var child: Counter.State? }
      enum Action: Equatable { case child(Counter.Action), present, dismiss }
      static let childPath = AnyCasePath<Action, Counter.Action>(
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
        .ifLet(\.child, action: Self.childPath) { Counter() }
      }
    }
    let store = Store(initialState: Parent.State()) { Parent() }
    let childPath = Parent.childPath
    #expect(store.scope(state: \.child, action: childPath) == nil)
    store.send(.present)
    let child = store.scope(state: \.child, action: childPath)
    child?.send(.incrementButtonTapped)
    #expect(store.child?.count == 1)
    store.send(.dismiss)
    #expect(child?.count == 1, "keeps the last value after the state went nil")
  }

  @Test func observersSeeEveryVersionInOrder() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let seen = Recorder<Int>()
    let observation = store.observe { seen.record($0.version * 100 + $0.state.count) }
    for _ in 0..<3 { store.send(.incrementButtonTapped) }
    observation.cancel()
    store.send(.incrementButtonTapped)
    #expect(seen.values == [0, 101, 202, 303])
  }

  @Test func statesSequenceStartsWithTheCurrentState() async {
    let store = Store(initialState: Counter.State(count: 5)) { Counter() }
    var iterator = store.states(bufferingPolicy: .unbounded).makeAsyncIterator()
    store.send(.incrementButtonTapped)
    #expect(await iterator.next()?.count == 5)
    #expect(await iterator.next()?.count == 6)
  }

  @Test func concurrentSendsAreReducedOneAtATime() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<500 { store.send(.incrementButtonTapped) } }
      }
    }
    #expect(store.count == 4000)
    #expect(store.snapshot.version == 4000)
  }

  @Test func tearDownCancelsEffectsAndIgnoresLaterActions() async {
    let store = Store(initialState: Counter.State()) {
      Reduce<Counter.State, Counter.Action> { state, action in
        state.count += 1
        return .run { _ in try await Task.sleep(for: .seconds(60)) }
      }
    }
    let task = store.send(.incrementButtonTapped)
    #expect(store.runningEffectCount == 1)
    store.tearDown()
    await task.finish()
    #expect(task.isCancelled)
    store.send(.incrementButtonTapped)
    #expect(store.count == 1)
  }

  @Test func releasingARootStoreCancelsItsEffects() async {
    var store: StoreOf<Counter>? = Store(initialState: Counter.State()) {
      Reduce { _, _ in .run { _ in try await Task.sleep(for: .seconds(60)) } }
    }
    let task = store!.send(.incrementButtonTapped)
    store = nil
    await task.finish()
    #expect(task.isCancelled)
  }

  @Test func storeTaskCancelStopsTheEffectsOfThatAction() async {
    let store = Store(initialState: Counter.State()) {
      Reduce<Counter.State, Counter.Action> { _, action in
        .run { send in
          try await Task.sleep(for: .seconds(60))
          await send(.decrementButtonTapped)
        }
      }
    }
    let task = store.send(.incrementButtonTapped)
    #expect(!task.isCancelled)
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.runningEffectCount == 0)
  }

  @Test func aSnapshotsCopiesChangeOnlyThemselves() {
    struct Pair: Equatable, Sendable {
      var count = 1
      var names = ["a"]
    }
    // Copies share the state's storage until one of them is changed.
    let original = StoreSnapshot(state: Pair(), version: 3)
    var copy = original
    copy.state.count = 2
    copy.state.names.append("b")
    #expect(original.state == Pair())
    #expect(copy.state == Pair(count: 2, names: ["a", "b"]) && copy.version == 3)
  }
}
