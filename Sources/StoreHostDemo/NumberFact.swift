import ComposableArchitecture
import StoreHostDemoClients

/// A number and a button that asks an injected client for a fact about it.
@Reducer
public struct NumberFact {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var number = 0
    public var fact: String?
    public var isLoading = false

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case factButtonTapped
    case incrementButtonTapped
    @Internal case factResponse(String)
  }

  @Dependency(\.numberFact) var numberFact

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.number -= 1
        state.fact = nil
        return .none
      case .incrementButtonTapped:
        state.number += 1
        state.fact = nil
        return .none
      case .factButtonTapped:
        state.isLoading = true
        return .run { [number = state.number, numberFact] send in
          await send(.factResponse(try await numberFact.fetch(number: number)))
        } catch: { _, send in
          await send(.factResponse("No fact is known about that number."))
        }
        .cancellable(id: CancelID.fact, cancelInFlight: true)
      case let .factResponse(fact):
        state.isLoading = false
        state.fact = fact
        return .none
      }
    }
  }

  private enum CancelID { case fact }
}
