import ComposableArchitecture

@Reducer
public struct Tally {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    public init() {}
  }

  public enum Action: Sendable {
    case incrementButtonTapped
    case resetButtonTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped: state.count += 1
      case .resetButtonTapped: state.count = 0
      }
      return .none
    }
  }
}
