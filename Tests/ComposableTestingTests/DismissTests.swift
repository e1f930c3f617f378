import ComposableArchitecture
import ComposableTesting
import Testing

/// A recording screen: a timer runs while it is shown, an alert asks before it ends, and it
/// dismisses itself when time is up or the alert is confirmed.
@Reducer
struct Recording {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    var secondsElapsed = 0
    var duration = 3
  }

  enum Action {
    case alert(PresentationAction<Alert>)
    case endButtonTapped
    case onTask
    case timerTick

    @CasePathable
    enum Alert: Equatable {
      case confirmDiscard
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return .run { _ in await dismiss() }
      case .alert:
        return .none
      case .endButtonTapped:
        state.alert = .endRecording
        return .none
      case .onTask:
        return .run { send in
          await withDiscardingTaskGroup { group in
            group.addTask {
              for await _ in clock.timer(interval: .seconds(1)) {
                await send(.timerTick)
              }
            }
          }
        }
      case .timerTick:
        guard state.alert == nil else { return .none }
        state.secondsElapsed += 1
        guard state.secondsElapsed == state.duration else { return .none }
        return .run { _ in await dismiss() }
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == Recording.Action.Alert {
  static let endRecording = AlertState { TextState("End recording?") } actions: {
    ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard") }
  }
}

/// A feature under test that dismisses itself ends as its parent would end it: its timer
/// stops, so the test passes without cancelling it.
@MainActor
struct DismissTests {
  private func makeStore() -> (TestStore<Recording.State, Recording.Action>, TestClock<Duration>) {
    let clock = TestClock()
    let store = TestStore(initialState: Recording.State()) {
      Recording()
    } withDependencies: {
      $0.continuousClock = clock
    }
    return (store, clock)
  }

  @Test
  func aTimerEndsTheRecordingWhichDismissesItselfAndStopsTheTimer() async {
    let (store, clock) = makeStore()

    await store.send(.onTask)
    await clock.advance(by: .seconds(3))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    await store.receive(\.timerTick) { $0.secondsElapsed = 2 }
    await store.receive(\.timerTick) { $0.secondsElapsed = 3 }
    #expect(store.isDismissed)
  }

  @Test
  func confirmingTheAlertDismissesTheRecordingAndStopsTheTimer() async {
    let (store, clock) = makeStore()

    await store.send(.onTask)
    await store.send(.endButtonTapped) {
      $0.alert = .endRecording
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick)
    await store.send(\.alert.confirmDiscard) { $0.alert = nil }
    #expect(store.isDismissed)
  }

  @Test
  func aDismissedStoreRefusesActions() async {
    let (store, clock) = makeStore()

    await store.send(.onTask)
    await store.send(.endButtonTapped) {
      $0.alert = .endRecording
    }
    await store.send(\.alert.confirmDiscard) { $0.alert = nil }
    await withKnownIssue {
      await store.send(.endButtonTapped)
    } matching: { issue in
      issue.description.contains("Can't send action to dismissed test store.")
    }
    await clock.advance(by: .seconds(1))
  }
}
