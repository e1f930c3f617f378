// A feature in a module of its own, with public types as TCA's TicTacToe declares them: no
// `Sendable` written on its state, as in TicTacToe.
import ComposableArchitecture
import PortingClient

public enum Player: Equatable {
  case x, o
}

@Reducer
public struct Login: Sendable {
  @ObservableState
  public struct State: Equatable {
    public var email = ""
    public var player: Player = .x
    public var forecast: Forecast?
    @Presents public var alert: AlertState<Action.Alert>?
    public init() {}
  }

  public enum Action: BindableAction {
    case alert(PresentationAction<Alert>)
    case binding(BindingAction<State>)
    case forecastButtonTapped
    case forecastResponse(Result<Forecast, any Error>)

    public enum Alert: Equatable {
      case retry
    }
  }

  @Dependency(\.weatherClient) var weatherClient

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .alert(.presented(.retry)):
        return .send(.forecastButtonTapped)
      case .alert, .binding:
        return .none
      case .forecastButtonTapped:
        return .run { send in
          await send(.forecastResponse(Result { try await weatherClient.forecast(location: Location(name: "Paris")) }))
        }
      case let .forecastResponse(.success(forecast)):
        state.forecast = forecast
        return .none
      case .forecastResponse(.failure):
        state.alert = AlertState { TextState("No forecast") } actions: {
          ButtonState(action: .retry) { TextState("Retry") }
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}
