import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// A stopwatch sheet, presented by id: showing another id replaces the one shown.
@Reducer
private struct Timers {
  struct State: Equatable {
    @Presents var sheet: Stopwatch.State?
  }

  enum Action: Equatable {
    case sheet(PresentationAction<Stopwatch.Action>)
    case showTapped(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .sheet(.dismiss):
        // Dismissing the first sheet shows the next one instead.
        if state.sheet?.id == 1 { state.sheet = Stopwatch.State(id: 2) }
        return .none
      case .sheet:
        return .none
      case let .showTapped(id):
        state.sheet = Stopwatch.State(id: id)
        return .none
      }
    }
    .ifLet(\.$sheet, action: \.sheet) { Stopwatch() }
  }
}

@MainActor
@Test func presentingAnotherIdentifiedStateCancelsTheFirstOnesEffects() async {
  let clock = TestClock()
  let store = TestStore(initialState: Timers.State()) {
    Timers()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.showTapped(id: 7)) {
    $0.sheet = Stopwatch.State(id: 7)
  }
  await store.send(.sheet(.presented(.startTapped)))
  await clock.advance(by: .seconds(1))
  await store.receive(.sheet(.presented(.tick))) {
    $0.sheet?.ticks = 1
  }
  await store.send(.showTapped(id: 8)) {
    $0.sheet = Stopwatch.State(id: 8)
  }
  // The first sheet's timer is gone: no more ticks arrive.
  await clock.advance(by: .seconds(3))
  await store.send(.sheet(.dismiss)) {
    $0.sheet = nil
  }
}

@MainActor
@Test func whatTheParentPresentsWhileDismissingStaysPresented() async {
  let store = TestStore(initialState: Timers.State(sheet: Stopwatch.State(id: 1))) {
    Timers()
  }
  await store.send(.sheet(.dismiss)) {
    $0.sheet = Stopwatch.State(id: 2)
  }
  await store.send(.sheet(.dismiss)) {
    $0.sheet = nil
  }
}

/// An alert or a counter, presented in the same place.
@Reducer
private struct Destinations {
  @Reducer
  struct Counter {
    struct State: Equatable {
      var count = 0
    }
    enum Action: Equatable {
      case incrementTapped
    }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Reducer
  struct Destination {
    enum State: Equatable {
      case alert(AlertState<Action.Alert>)
      case counter(Counter.State)
    }
    enum Action: Equatable {
      case alert(Alert)
      case counter(Counter.Action)
      enum Alert: Equatable {
        case okTapped
      }
    }
    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
    }
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
  }

  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}

@MainActor
@Test func anAlertIsAnsweredOnlyByItsOwnActions() async {
  let alert = AlertState<Destinations.Destination.Action.Alert> {
    TextState("Saved")
  } actions: {
    ButtonState(action: .okTapped) { TextState("OK") }
  }
  let store = TestStore(initialState: Destinations.State(destination: .alert(alert))) {
    Destinations()
  }
  await withKnownIssue {
    await store.send(.destination(.presented(.counter(.incrementTapped))))
  } matching: { issue in
    issue.description.contains("received a child action when child state was set to a different case")
  }
  await store.send(.destination(.presented(.alert(.okTapped)))) {
    $0.destination = nil
  }
}
