import ComposableArchitecture

/// Two counters side by side, each scoped to its own state.
struct TwoCounters: Reducer {
  struct State: Equatable {
    var first = Counter.State()
    var second = Counter.State()
  }

  enum Action: Equatable {
    case first(Counter.Action)
    case second(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.first, action: \.first) { Counter() }
    Scope(state: \.second, action: \.second) { Counter() }
  }
}

extension TwoCounters.Action: CasePathable {
  struct AllCasePaths {
    var first: AnyCasePath<TwoCounters.Action, Counter.Action> {
      AnyCasePath(embed: { .first($0) }, extract: { if case let .first(action) = $0 { action } else { nil } })
    }
    var second: AnyCasePath<TwoCounters.Action, Counter.Action> {
      AnyCasePath(embed: { .second($0) }, extract: { if case let .second(action) = $0 { action } else { nil } })
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
