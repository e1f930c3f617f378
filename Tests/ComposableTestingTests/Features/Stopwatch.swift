import ComposableArchitecture

/// A stopwatch that ticks every second until it is stopped by the id of its own timer: with
/// a `.cancel(id:)` effect, with `Task.cancel(id:)` in an effect, or with `Task.cancel(id:)`
/// in the reducer. Its `id` tells one presented stopwatch from another.
@Reducer
struct Stopwatch {
  struct State: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }

  enum Action: Equatable {
    case startTapped
    case stopTapped
    case stopFromEffectTapped
    case stopFromReducerTapped
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
        .cancellable(id: CancelID.timer)
      case .stopTapped:
        return .cancel(id: CancelID.timer)
      case .stopFromEffectTapped:
        return .run { _ in Task.cancel(id: CancelID.timer) }
      case .stopFromReducerTapped:
        Task.cancel(id: CancelID.timer)
        return .none
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}
