import ComposableArchitecture

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
          await send(.factResponse(try await numberFact.fetch(number)))
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

/// Tells a fact about a number.
public struct NumberFactClient: Sendable {
  public var fetch: @Sendable (Int) async throws -> String

  public init(fetch: @escaping @Sendable (Int) async throws -> String) {
    self.fetch = fetch
  }
}

extension NumberFactClient: DependencyKey {
  /// Facts computed locally, after a short think: no network.
  public static let liveValue = NumberFactClient { number in
    try await Task.sleep(for: .milliseconds(150))
    return NumberFacts.fact(about: number)
  }
}

extension DependencyValues {
  /// The number fact client of ``NumberFact``.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// Facts that can be worked out about any integer.
enum NumberFacts {
  static func fact(about number: Int) -> String {
    if number == 0 { return "0 is the only number that is neither positive nor negative." }
    let magnitude = number.magnitude
    if magnitude > 1, (2..<magnitude).prefix(while: { $0 * $0 <= magnitude }).allSatisfy({ magnitude % $0 != 0 }) {
      return "\(number) is a prime number (up to its sign)."
    }
    let root = UInt(Double(magnitude).squareRoot())
    if root * root == magnitude { return "\(number) is a perfect square: \(root) × \(root)." }
    let divisors = (1...magnitude).filter { magnitude % $0 == 0 }.count
    return "\(number) has \(divisors) divisors and is \(number.isMultiple(of: 2) ? "even" : "odd")."
  }
}
