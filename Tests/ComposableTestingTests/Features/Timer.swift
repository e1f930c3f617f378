import ComposableArchitecture

/// Counts seconds while switched on, on the continuous clock.
struct TimerFeature: Reducer {
  struct State: Equatable {
    var isTimerActive = false
    var secondsElapsed = 0
  }

  enum Action: Equatable {
    case timerTick
    case toggleTimerButtonTapped
  }

  private enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .timerTick:
        state.secondsElapsed += 1
        return .none
      case .toggleTimerButtonTapped:
        state.isTimerActive.toggle()
        guard state.isTimerActive else { return .cancel(id: CancelID.timer) }
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      }
    }
  }
}

extension TimerFeature.Action: CasePathable {
  struct AllCasePaths {
    var timerTick: AnyCasePath<TimerFeature.Action, Void> {
      AnyCasePath(embed: { .timerTick }, extract: { if case .timerTick = $0 { () } else { nil } })
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}
