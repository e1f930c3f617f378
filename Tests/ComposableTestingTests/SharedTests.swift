import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// A counter whose count is shared, changed by the reducer, by an effect, or left alone.
private struct SharedCount: Reducer {
  struct State: Equatable {
    @Shared var count: Int
    var note = ""
  }

  enum Action: Equatable {
    case incrementButtonTapped
    case incrementInEffect
    case noteChanged(String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.$count.withLock { $0 += 1 }
        return .none
      case .incrementInEffect:
        return .run { [count = state.$count] _ in count.withLock { $0 += 1 } }
      case let .noteChanged(note):
        state.note = note
        return .none
      }
    }
  }
}

/// A feature keeping its count in app storage, as in the seed.
private struct StoredCount: Reducer {
  struct State: Equatable {
    @Shared(.appStorage("SharedTests.storedCount")) var count = 0
  }

  var body: some Reducer<State, Bool> {
    Reduce { state, _ in
      state.$count.withLock { $0 += 1 }
      return .none
    }
  }
}

@Test
func sharedChangeIsAssertedLikeState() async {
  let store = TestStore(initialState: SharedCount.State(count: Shared(0))) { SharedCount() }
  await store.send(.incrementButtonTapped) {
    $0.$count.withLock { $0 = 1 }
  }
  await store.send(.incrementButtonTapped) {
    $0.$count.withLock { $0 += 1 }
  }
  #expect(store.state.count == 2)
}

@Test
func assertingASharedChangeDoesNotChangeTheSharedValue() async {
  let count = Shared(0)
  let store = TestStore(initialState: SharedCount.State(count: count)) { SharedCount() }
  await withKnownIssue {
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 5 }
    }
  } matching: { issue in
    issue.description.contains(
      """
          \u{2007} SharedCount.State(
          −   count: 5,
          +   count: 1,
          \u{2007}   note: ""
          \u{2007} )
      """)
  }
  #expect(count.wrappedValue == 1)
}

@Test
func unassertedSharedChangeFails() async {
  let store = TestStore(initialState: SharedCount.State(count: Shared(0))) { SharedCount() }
  await withKnownIssue {
    await store.send(.incrementButtonTapped)
  } matching: { issue in
    issue.description.contains("State was not expected to change, but a change occurred")
      && issue.description.contains("−   count: 0,\n    +   count: 1,")
  }
}

@Test
func sharedChangeFromAnEffectIsAssertedAfterwards() async {
  let store = TestStore(initialState: SharedCount.State(count: Shared(0))) { SharedCount() }
  await store.send(.incrementInEffect).finish()
  store.assert {
    $0.$count.withLock { $0 = 1 }
  }
}

@Test
func sharedChangeMadeOutsideTheStoreIsAssertedWithAssert() async {
  let count = Shared(0)
  let store = TestStore(initialState: SharedCount.State(count: count)) { SharedCount() }
  count.withLock { $0 = 42 }
  store.assert {
    $0.$count.withLock { $0 = 42 }
  }
  await store.send(.noteChanged("hi")) { $0.note = "hi" }
}

@Test
func unassertedOutsideChangeFailsTheNextStep() async {
  let count = Shared(0)
  let store = TestStore(initialState: SharedCount.State(count: count)) { SharedCount() }
  count.withLock { $0 = 42 }
  await withKnownIssue {
    await store.send(.noteChanged("hi")) { $0.note = "hi" }
  } matching: { issue in
    issue.description.contains("−   count: 0,\n    +   count: 42,")
  }
}

@Test
func assertOfTheSharedValueAsItIsPasses() {
  let store = TestStore(initialState: SharedCount.State(count: Shared(3))) { SharedCount() }
  store.assert { $0.$count.withLock { $0 = 3 } }
  withKnownIssue {
    store.assert { $0.$count.withLock { $0 = 4 } }
  } matching: { issue in
    issue.description.contains("−   count: 4")
  }
}

@Test
func nonExhaustiveChecksOnlyWhatIsAsserted() async {
  let store = TestStore(initialState: SharedCount.State(count: Shared(0))) { SharedCount() }
  store.exhaustivity = .off
  await store.send(.incrementButtonTapped)
  await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 2 } }
  await withKnownIssue {
    await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 7 } }
  } matching: { issue in
    issue.description.contains("A state change does not match expectation")
  }
}

@Test
func appStorageInTestsStartsFromTheTestsValueAndStaysInMemory() async {
  await withDependencies { $0.context = .test } operation: {
    @Shared(.appStorage("SharedTests.storedCount")) var count = 42
    let store = TestStore(initialState: StoredCount.State()) { StoredCount() }
    #expect(store.state.count == 42)
    await store.send(true) { $0.$count.withLock { $0 = 43 } }
    #expect(count == 43)
  }
}

private struct Item: Equatable, Identifiable, Codable {
  let id: Int
  var title: String
}

/// A detail of one element of a shared collection, which deletes it and leaves, as TCA's
/// SyncUps detail does.
private struct ItemDetail: Reducer {
  struct State: Equatable {
    @Shared var item: Item
  }

  enum Action: Equatable {
    case renameButtonTapped(String)
    case deleteButtonTapped
  }

  let itemsKey: String
  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .renameButtonTapped(title):
        state.$item.withLock { $0.title = title }
        return .none
      case .deleteButtonTapped:
        @Shared(.inMemory(itemsKey)) var items: IdentifiedArrayOf<Item> = []
        $items.withLock { _ = $0.remove(id: state.item.id) }
        return .run { _ in await dismiss() }
      }
    }
  }
}

@Test
func aDetailOfASharedElementRenamesItDeletesItAndDismisses() async throws {
  let key = "SharedTests.items"
  @Shared(.inMemory(key)) var items: IdentifiedArrayOf<Item> = [Item(id: 1, title: "A"), Item(id: 2, title: "B")]
  let item = try #require(Shared($items[id: 1]))
  let store = TestStore(initialState: ItemDetail.State(item: item)) { ItemDetail(itemsKey: key) }

  await store.send(.renameButtonTapped("A, renamed")) {
    $0.$item.withLock { $0.title = "A, renamed" }
  }
  #expect(items[id: 1]?.title == "A, renamed")

  await store.send(.deleteButtonTapped).finish()
  #expect(items.ids == [2])
  #expect(store.state.item == Item(id: 1, title: "A, renamed"), "the detail keeps what it showed")
  #expect(store.isDismissed)
}
