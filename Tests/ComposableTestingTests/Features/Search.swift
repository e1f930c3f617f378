import ComposableArchitecture

/// Searches as the query changes, once typing pauses for 300 ms.
struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }

  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse([String])
  }

  private enum CancelID { case search }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .run { send in
          await send(.searchResponse(["\(query) one", "\(query) two"]))
        }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case let .searchResponse(results):
        state.results = results
        return .none
      }
    }
  }
}

extension Search.Action: CasePathable {
  struct AllCasePaths {
    var searchResponse: AnyCasePath<Search.Action, [String]> {
      AnyCasePath(
        embed: { .searchResponse($0) },
        extract: { if case let .searchResponse(results) = $0 { results } else { nil } })
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
