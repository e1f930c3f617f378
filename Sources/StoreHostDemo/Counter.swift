import ComposableArchitecture

/// The seed's Counter: a number and two buttons.
@Reducer
public struct Counter {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var count = 0

    public init(count: Int = 0) { self.count = count }
  }

  public enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}
