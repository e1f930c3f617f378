import ComposableArchitecture

/// Two counters side by side, each a scoped `Counter`.
@Reducer
public struct TwoCounters {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var first = Counter.State()
    public var second = Counter.State()

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case first(Counter.Action)
    case second(Counter.Action)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.first, action: \.first) { Counter() }
    Scope(state: \.second, action: \.second) { Counter() }
  }
}
