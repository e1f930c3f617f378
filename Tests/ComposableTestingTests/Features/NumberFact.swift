import ComposableArchitecture

/// Fetches a fact about a number. It has no test value: tests must provide one.
struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient { number in "\(number) is a number." }
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// A counter that loads a fact about its count through an effect.
struct NumberFact: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
  }

  enum Action: Equatable {
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.numberFact) var numberFact

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return .run { [count = state.count] send in
          try await send(.factResponse(numberFact.fetch(count)))
        }
      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

extension NumberFact.Action: CasePathable {
  struct AllCasePaths {
    var factResponse: AnyCasePath<NumberFact.Action, String> {
      AnyCasePath(
        embed: { .factResponse($0) }, extract: { if case let .factResponse(fact) = $0 { fact } else { nil } })
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
