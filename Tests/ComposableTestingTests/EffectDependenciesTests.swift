import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// Stamps the current date, read in an effect made under other dependencies.
@Reducer
private struct Stamper {
  struct State: Equatable {
    var stamp: Date?
  }
  enum Action: Equatable {
    case stamped(Date)
    case stampTapped
  }

  @Dependency(\.date.now) var now

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .stamped(date):
        state.stamp = date
        return .none
      case .stampTapped:
        return withDependencies {
          $0.date.now = Date(timeIntervalSince1970: 42)
        } operation: {
          .run { send in await send(.stamped(now)) }
        }
      }
    }
  }
}

@MainActor
@Test func anEffectRunsWithTheDependenciesOfWhereItWasMade() async {
  let store = TestStore(initialState: Stamper.State()) {
    Stamper()
  } withDependencies: {
    $0.date.now = Date(timeIntervalSince1970: 0)
  }
  await store.send(.stampTapped)
  await store.receive(.stamped(Date(timeIntervalSince1970: 42))) {
    $0.stamp = Date(timeIntervalSince1970: 42)
  }
}

@MainActor
@Test func aStoresEffectRunsWithTheDependenciesOfWhereItWasMadeToo() async {
  let store = Store(initialState: Stamper.State()) {
    Stamper()
  } withDependencies: {
    $0.date.now = Date(timeIntervalSince1970: 0)
  }
  await store.send(.stampTapped).finish()
  #expect(store.withState(\.stamp) == Date(timeIntervalSince1970: 42))
}
