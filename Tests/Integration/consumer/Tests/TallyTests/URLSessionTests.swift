import ComposableArchitecture
import ComposableTesting
import Testing

// The package requires StoreHost with its `URLSession` trait, which declares `\.urlSession`
// and brings `URLSession` with `import ComposableArchitecture`.

/// Reads the URL session a live client would fetch with.
private struct Downloader: Reducer {
  struct State: Equatable {
    var hasSession = false
  }
  enum Action: Equatable {
    case prepare
  }

  @Dependency(\.urlSession) var urlSession

  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.hasSession = urlSession.configuration.timeoutIntervalForRequest > 0
      return .none
    }
  }
}

@Test
func aTestSetsTheURLSession() async {
  let store = TestStore(initialState: Downloader.State()) {
    Downloader()
  } withDependencies: {
    $0.urlSession = URLSession(configuration: .ephemeral)
  }
  await store.send(.prepare) {
    $0.hasSession = true
  }
}

@Test
func aURLSessionLeftUnsetInATestIsReported() async {
  let store = TestStore(initialState: Downloader.State()) { Downloader() }
  await withKnownIssue {
    await store.send(.prepare) {
      $0.hasSession = true
    }
  } matching: { issue in
    issue.description.contains(#"@Dependency(\.urlSession) has no test implementation"#)
  }
}
