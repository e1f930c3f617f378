import Composable
import Foundation
import Testing

/// A counter whose count is shared, with ways to change it from the reducer, an effect,
/// and to follow its changes.
private struct SharedCounter: Reducer {
  struct State: Equatable, Codable {
    @Shared var count: Int
    var seen: [Int] = []
  }

  enum Action: Equatable {
    case increment
    case incrementInEffect
    case observe
    case countChanged(Int)
    case noop
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.$count.withLock { $0 += 1 }
      return .none
    case .incrementInEffect:
      return .run { [count = state.$count] _ in count.withLock { $0 += 1 } }
    case .observe:
      return .run { [count = state.$count] send in
        for await value in count.publisher { await send(.countChanged(value)) }
      }
    case let .countChanged(value):
      state.seen.append(value)
      return .none
    case .noop:
      return .none
    }
  }
}

/// Waits until `condition` holds (up to 2 s).
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<400 {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

@Suite struct SharingStoreTests {
  @Test func twoStoresHoldingOneKeySeeOneValue() {
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      let first = Store(initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))) {
        SharedCounter()
      }
      let second = Store(initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))) {
        SharedCounter()
      }
      first.send(.increment)
      #expect(second.count == 1)
      #expect(first.count == 1)
    }
  }

  @Test func anotherStorePublishesANewVersionWithoutAnAction() {
    let count = Shared(0)
    let first = Store(initialState: SharedCounter.State(count: count)) { SharedCounter() }
    let second = Store(initialState: SharedCounter.State(count: count)) { SharedCounter() }
    let published = Recorder<StoreSnapshot<SharedCounter.State>>()
    let observation = second.observe { published.record($0) }
    first.send(.increment)
    #expect(first.snapshot.version == 1)
    #expect(second.snapshot.version == 1)
    #expect(published.values.map(\.version) == [0, 1])
    #expect(published.values.last?.state.count == 1)
    observation.cancel()
  }

  @Test func theMutatingStorePublishesOneVersionPerChange() {
    let store = Store(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    store.send(.increment)
    store.send(.increment)
    store.send(.noop)
    #expect(store.snapshot.version == 2)
    #expect(store.count == 2)
  }

  @Test func aChangeMadeOutsideAnyStorePublishes() {
    let count = Shared(0)
    let store = Store(initialState: SharedCounter.State(count: count)) { SharedCounter() }
    count.withLock { $0 = 10 }
    #expect(store.snapshot.version == 1)
    #expect(store.snapshot.state.count == 10)
  }

  @Test func aChangeMadeInAnEffectPublishes() async {
    let store = Store(initialState: SharedCounter.State(count: Shared(0))) { SharedCounter() }
    await store.send(.incrementInEffect).finish()
    #expect(store.count == 1)
    #expect(store.snapshot.version == 1)
  }

  @Test func storesChangingOneValueConcurrentlyDoNotDeadlock() async {
    let count = Shared(0)
    let stores = (0..<4).map { _ in Store(initialState: SharedCounter.State(count: count)) { SharedCounter() } }
    await withTaskGroup(of: Void.self) { group in
      for store in stores {
        group.addTask { for _ in 0..<2_000 { store.send(.increment) } }
      }
    }
    #expect(count.wrappedValue == 8_000)
    for store in stores { #expect(store.snapshot.version >= 2_000) }
  }

  @Test func observingTheValueItHoldsMakesNoLoop() async {
    let count = Shared(0)
    let store = Store(initialState: SharedCounter.State(count: count)) { SharedCounter() }
    let observing = store.send(.observe)
    // The effect hears changes once it has started (on a busy machine, maybe late): change
    // the value until it hears one.
    #expect(await eventually {
      guard store.seen.isEmpty else { return true }
      store.send(.increment)
      return false
    })
    #expect(await eventually { store.seen.last == count.wrappedValue })
    // Two more changes, heard in order: a change made by hearing one would be heard
    // between them, or after the first.
    let seen = store.seen
    let next = count.wrappedValue + 1
    count.withLock { $0 += 1 }
    #expect(await eventually { store.seen.last == next })
    count.withLock { $0 += 1 }
    #expect(await eventually { store.seen.last == next + 1 })
    #expect(store.seen == seen + [next, next + 1], "hearing a change makes no further change")
    #expect(count.wrappedValue == next + 1)
    observing.cancel()
  }

  @Test func aStateThatGainsASharedValueLaterFollowsIt() {
    struct Holder: Equatable {
      var child: SharedCounter.State?
    }
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      let store = Store(initialState: Holder()) {
        Reduce<Holder, Bool> { state, add in
          state.child = add ? SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("gained"))) : nil
          return .none
        }
      }
      let count = Shared(wrappedValue: 0, .inMemory("gained"))
      count.withLock { $0 += 1 }
      #expect(store.snapshot.version == 0)
      store.send(true)
      #expect(store.snapshot.version == 1)
      count.withLock { $0 += 1 }
      #expect(store.snapshot.version == 2)
      #expect(store.child?.count == 2)
      store.send(false)
      count.withLock { $0 += 1 }
      #expect(store.snapshot.version == 3)
    }
  }

  @Test func aSharedValueHeldInTwoPlacesIsFollowedUntilBothLetItGo() {
    struct Holder: Equatable {
      var first: SharedCounter.State?
      var others: [SharedCounter.State] = []
    }
    enum Step { case hold, dropFirst, dropOthers }
    let count = Shared(0)
    let store = Store(initialState: Holder()) {
      Reduce<Holder, Step> { state, step in
        switch step {
        case .hold:
          state.first = SharedCounter.State(count: count)
          state.others = [SharedCounter.State(count: count)]
        case .dropFirst:
          state.first = nil
        case .dropOthers:
          state.others = []
        }
        return .none
      }
    }
    store.send(.hold)
    count.withLock { $0 += 1 }
    #expect(store.snapshot.version == 2)
    store.send(.dropFirst)
    count.withLock { $0 += 1 }
    #expect(store.snapshot.version == 4)
    #expect(store.others.first?.count == 2)
    store.send(.dropOthers)
    count.withLock { $0 += 1 }
    #expect(store.snapshot.version == 5)
  }

  @Test func aSharedValueMovedWithinTheStateIsStillFollowed() {
    struct Holder: Equatable {
      var children: [SharedCounter.State] = []
      var parked: SharedCounter.State?
    }
    let count = Shared(0)
    let store = Store(initialState: Holder(children: [SharedCounter.State(count: count)])) {
      Reduce<Holder, Bool> { state, _ in
        state.parked = state.children.removeFirst()
        return .none
      }
    }
    store.send(true)
    count.withLock { $0 += 1 }
    #expect(store.snapshot.version == 2)
    #expect(store.parked?.count == 1)
  }

  @Test func aReleasedStoreStopsFollowing() {
    let count = Shared(0)
    var store: StoreOf<SharedCounter>? = Store(initialState: SharedCounter.State(count: count)) { SharedCounter() }
    weak let released = store
    store = nil
    count.withLock { $0 += 1 }
    #expect(released == nil)
  }

  @Test func inMemoryKeysArePerProcessByDefault() {
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      let first = withDependencies { $0.sessionID = "a" } operation: {
        Shared(wrappedValue: 0, .inMemory("visitors"))
      }
      let second = withDependencies { $0.sessionID = "b" } operation: {
        Shared(wrappedValue: 0, .inMemory("visitors"))
      }
      first.withLock { $0 += 1 }
      #expect(second.wrappedValue == 1)
    }
  }

  @Test func sessionScopedKeysAreSeparatePerSession() {
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      func cart(_ session: String) -> Shared<Int> {
        withDependencies { $0.sessionID = session } operation: {
          Shared(wrappedValue: 0, .inMemory("cart", scope: .session))
        }
      }
      let a1 = cart("a")
      let a2 = cart("a")
      let b = cart("b")
      a1.withLock { $0 = 3 }
      #expect(a2.wrappedValue == 3)
      #expect(b.wrappedValue == 0)
    }
  }

  @Test func sessionScopeInAStoreUsesTheStoresSessionID() {
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      func store(_ session: String) -> StoreOf<SharedCounter> {
        Store(initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("n", scope: .session)))) {
          SharedCounter()
        } withDependencies: {
          $0.sessionID = session
        }
      }
      let a = store("a")
      let b = store("b")
      a.send(.increment)
      #expect(a.count == 1)
      #expect(b.count == 0)
      #expect(b.snapshot.version == 0)
    }
  }

  @Test func aKeyValueOutlivesItsHolders() {
    withDependencies { $0.defaultInMemoryStorage = InMemoryStorage() } operation: {
      do {
        let count = Shared(wrappedValue: 0, .inMemory("kept"))
        count.withLock { $0 = 5 }
      }
      #expect(Shared(wrappedValue: 0, .inMemory("kept")).wrappedValue == 5)
    }
  }

  @Test func endingASessionForgetsItsInMemoryValues() {
    let storage = InMemoryStorage()
    withDependencies {
      $0.defaultInMemoryStorage = storage
      $0.sessionID = "ended"
    } operation: {
      do {
        let cart = Shared(wrappedValue: 0, .inMemory("cart", scope: .session))
        cart.withLock { $0 = 2 }
      }
      storage.removeValues(forSession: "ended")
      #expect(Shared(wrappedValue: 0, .inMemory("cart", scope: .session)).wrappedValue == 0)
    }
  }
}
