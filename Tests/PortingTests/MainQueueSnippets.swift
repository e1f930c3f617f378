// A feature written before clocks, as TCA's older documentation writes it: the main queue
// scheduler, `.debounce(id:for:scheduler:)`, and `DispatchQueue.test` in its test.
import ComposableArchitecture
import Testing

@Reducer
struct QueueSearch {
  @ObservableState
  struct State: Equatable {
    var query = ""
    var searched: [String] = []
    var ticks = 0
  }

  enum Action {
    case queryChanged(String)
    case search(String)
    case startTimerButtonTapped
    case timerTicked
  }

  @Dependency(\.mainQueue) var mainQueue
  enum CancelID { case search, timer }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .send(.search(query))
          .debounce(id: CancelID.search, for: 0.3, scheduler: mainQueue)
      case let .search(query):
        state.searched.append(query)
        return .none
      case .startTimerButtonTapped:
        return .run { send in
          for await _ in mainQueue.timer(interval: 1) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer)
      case .timerTicked:
        state.ticks += 1
        return state.ticks == 2 ? .cancel(id: CancelID.timer) : .none
      }
    }
  }
}

@MainActor
struct MainQueueSnippetTests {
  @Test func debounceOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: QueueSearch.State()) {
      QueueSearch()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.queryChanged("B")) { $0.query = "B" }
    await mainQueue.advance(by: .milliseconds(200))
    await store.send(.queryChanged("Bl")) { $0.query = "Bl" }
    await mainQueue.advance(by: .seconds(0.3))
    await store.receive(\.search) { $0.searched = ["Bl"] }
  }

  @Test func timerOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: QueueSearch.State()) {
      QueueSearch()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    let seconds = 1
    await store.send(.startTimerButtonTapped)
    await mainQueue.advance(by: .seconds(seconds))
    await store.receive(\.timerTicked) { $0.ticks = 1 }
    await mainQueue.advance(by: 1)
    await store.receive(\.timerTicked) { $0.ticks = 2 }
  }

  @Test func theMainQueueIsUnimplementedInTests() async {
    @Dependency(\.mainQueue) var mainQueue
    await withKnownIssue {
      try? await mainQueue.sleep(for: 1)
    } matching: { issue in
      issue.description.contains("@Dependency(\\.mainQueue) has no test implementation")
    }
  }
}
