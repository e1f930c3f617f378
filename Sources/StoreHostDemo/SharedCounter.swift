import ComposableArchitecture

/// A counter shared by every session of the process: `@Shared(.appStorage("sharedCount"))`.
/// Any session's increment reaches every session's state at once, and the value is kept on
/// disk across restarts.
@Reducer
public struct SharedCounter {
  @ObservableState
  public struct State: Equatable, Encodable, Sendable {
    @Shared(.appStorage("sharedCount")) public var count = 0

    public init() {}
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
        state.$count.withLock { $0 -= 1 }
      case .incrementButtonTapped:
        state.$count.withLock { $0 += 1 }
      }
      return .none
    }
  }
}

extension SharedCounter.State: Decodable {
  /// A saved session's copy of the count is stale: attach to the shared value instead.
  public init(from decoder: any Decoder) throws {
    self.init()
  }
}
