import ComposableArchitecture

/// The smallest feature a session can host: each `add` counts one and makes one version.
@Reducer
struct Tally {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case add
  }

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}
