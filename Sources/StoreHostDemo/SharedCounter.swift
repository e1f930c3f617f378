import ComposableArchitecture

/// A counter shared by every session of the process: `@Shared(.appStorage("sharedCount"))`.
/// Any session's increment reaches every session's state at once, and the value is kept on
/// disk across restarts. A server whose processes share a database sets
/// ``Composable/DependencyValues/sharedCountKey`` to a key every process shares instead.
@Reducer
public struct SharedCounter {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    @Shared(SharedCounter.countKey()) public var count = 0

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  public init() {}

  /// The key of the count: the ``Composable/DependencyValues/sharedCountKey`` dependency when
  /// set, else `.appStorage("sharedCount")`.
  static func countKey() -> any SharedKey<Int> {
    DependencyValues.current.sharedCountKey ?? AppStorageKey<Int>.appStorage("sharedCount")
  }

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
