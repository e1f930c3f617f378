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
        guard state.isRunning else { return .cancel(id: CancelID.timer) }
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .tick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }

  private enum CancelID { case timer }
}
