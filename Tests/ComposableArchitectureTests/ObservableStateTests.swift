import ComposableArchitecture
import Foundation
import Testing

@testable import Composable

/// Observation of `@ObservableState` values, as a TCA view observes them: read a property
/// inside `withPerceptionTracking`, change the state, and see whether `onChange` ran.
@Suite struct ObservableStateTests {
  @ObservableState
  struct Counter: Codable, Equatable, Hashable, Identifiable {
    let id: Int
    var count = 0
    var title = ""
  }

  @ObservableState
  struct Parent: Codable, Equatable {
    var counter = Counter(id: 1)
    var counters: IdentifiedArrayOf<Counter> = []
    var path = StackState<Counter>()
    @Presents var destination: Destination?
    var note: String?
  }

  @CasePathable
  @dynamicMemberLookup
  @ObservableState
  enum Destination: Codable, Equatable {
    case counter(Counter)
    case message(String)
  }

  /// Whether `onChange` ran after `change`, for a read of `read`.
  private func notifies<S>(
    _ state: inout S, reading read: @escaping (S) -> Void, _ change: (inout S) -> Void
  ) -> Bool {
    let didChange = LockIsolated(false)
    let current = state
    withPerceptionTracking {
      read(current)
    } onChange: {
      didChange.withValue { $0 = true }
    }
    change(&state)
    return didChange.value
  }

  @Test func aChangeOfAReadPropertyNotifies() {
    var state = Counter(id: 1)
    #expect(notifies(&state, reading: { _ = $0.count }) { $0.count += 1 })
    #expect(state.count == 1)
  }

  @Test func assigningAnEqualValueOrChangingAnotherPropertyDoesNot() {
    var state = Counter(id: 1)
    #expect(!notifies(&state, reading: { _ = $0.count }) { $0.count = $0.count })
    #expect(!notifies(&state, reading: { _ = $0.count }) { $0.title = "Milk" })
  }

  @Test func aChildChangedInPlaceNotifiesItsReadersNotThoseOfTheParentProperty() {
    var state = Parent()
    #expect(notifies(&state, reading: { _ = $0.counter.count }) { $0.counter.count += 1 })
    #expect(!notifies(&state, reading: { _ = $0.counter }) { $0.counter.count += 1 })
    #expect(notifies(&state, reading: { _ = $0.counter }) { $0.counter = Counter(id: 2) })
  }

  @Test func collectionsNotifyWhenTheirElementsComeOrGoNotWhenOneChanges() {
    var state = Parent(counters: [Counter(id: 1), Counter(id: 2)])
    #expect(!notifies(&state, reading: { _ = $0.counters }) { $0.counters[id: 1]?.count += 1 })
    #expect(!notifies(&state, reading: { _ = $0.counters[id: 2]?.count }) { $0.counters[id: 1]?.count += 1 })
    #expect(notifies(&state, reading: { _ = $0.counters }) { $0.counters.append(Counter(id: 3)) })
    #expect(notifies(&state, reading: { _ = $0.path }) { $0.path.append(Counter(id: 4)) })
    #expect(!notifies(&state, reading: { _ = $0.path }) { $0.path[id: 0]?.count += 1 })
  }

  @Test func aPresentedStateNotifiesWhenItIsPresentedReplacedOrDismissed() {
    var state = Parent()
    #expect(notifies(&state, reading: { _ = $0.destination }) { $0.destination = .counter(Counter(id: 1)) })
    #expect(!notifies(&state, reading: { _ = $0.destination }) { $0.destination?.counter?.count += 1 })
    #expect(notifies(&state, reading: { _ = $0.destination }) { $0.destination = .message("Hi") })
    #expect(notifies(&state, reading: { _ = $0.destination }) { $0.destination = nil })
  }

  @Test func anEnumStateIsIdentifiedByItsCaseAndItsPayload() {
    let counter = Counter(id: 1)
    #expect(Destination.counter(counter)._$id == Destination.counter(counter)._$id)
    #expect(Destination.counter(counter)._$id != Destination.counter(Counter(id: 1))._$id)
    #expect(Destination.message("Hi")._$id != Destination.message("Hi")._$id, "no identity: always a change")
  }

  @Test func aStoreNotifiesReadersOfItsState() async {
    let store = Store(initialState: Counter(id: 1)) {
      Reduce<Counter, Void> { state, _ in
        state.count += 1
        return .none
      }
    }
    let didChange = LockIsolated(false)
    withPerceptionTracking {
      _ = store.state
    } onChange: {
      didChange.withValue { $0 = true }
    }
    await store.send(()).finish()
    #expect(didChange.value)
    #expect(store.state.count == 1)
  }

  @Test func observationIsNotPartOfTheState() throws {
    var state = Parent(counter: Counter(id: 1, count: 2))
    _ = notifies(&state, reading: { _ = $0.counter.count }) { $0.counter.count += 1 }
    var other = Parent(counter: Counter(id: 1, count: 3))
    other._$willModify()
    #expect(state == other, "equal fields, different identities and registrars")
    #expect(state.counter.hashValue == other.counter.hashValue)

    let json = String(decoding: try JSONEncoder().encode(state.counter), as: UTF8.self)
    #expect(!json.contains("_"), "\(json)")
    let decoded = try JSONDecoder().decode(Counter.self, from: Data(#"{"id":1,"count":3}"#.utf8))
    #expect(decoded == state.counter)

    let dump = customDump(state.counter)
    #expect(dump.contains("count: 3") && !dump.contains("_"), "\(dump)")

    let schema = JSONSchema.schema(of: Counter.self, for: .read)
    #expect(!"\(schema)".contains("_"), "\(schema)")
  }

  @Test func aStateReadOutsideTrackingMakesNoRegistrar() {
    // Tracking on any thread counts, and other tests track beside this one: the change and
    // the read are made again until no tracking ran before and after them.
    var state = Parent()
    for _ in 0..<1_000 {
      state = Parent()
      let wasTracking = PerceptionTracking.isActive
      state.counter.count += 1
      _ = state.counter.count
      if !wasTracking && !PerceptionTracking.isActive { break }
    }
    #expect(!state._$observationRegistrar.isObserved)
    #expect(!state.counter._$observationRegistrar.isObserved)
    withPerceptionTracking { _ = state.counter.count } onChange: {}
    #expect(state._$observationRegistrar.isObserved && state.counter._$observationRegistrar.isObserved)
  }
}
