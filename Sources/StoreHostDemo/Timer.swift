import ComposableArchitecture

/// A timer that counts seconds while running; stopping it cancels its effect.
@Reducer
public struct Timer {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var isRunning = false
    public var secondsElapsed = 0

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case resetButtonTapped
    case toggleButtonTapped
    /// The session was rebuilt on a new process (a restart or a takeover): effects did not
    /// come along, so a running timer starts ticking again.
    @Internal case resumed
    @Internal case tick
  }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .resetButtonTapped:
        state.secondsElapsed = 0
        return .none
      case .toggleButtonTapped:
        state.isRunning.toggle()
        return state.isRunning ? ticking : .cancel(id: CancelID.timer)
      case .resumed:
        return state.isRunning ? ticking : .none
      case .tick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }

  /// A tick every second until cancelled.
  private var ticking: Effect<Action> {
    .run { [clock] send in
      while true {
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }

  private enum CancelID { case timer }
}
