// The demo's client module, as TCA apps write one: it imports Dependencies and
// DependenciesMacros only, so it links neither the architecture's macros nor the host.
import Dependencies
import DependenciesMacros

/// Tells a fact about a number: `try await numberFact.fetch(number: 7)`.
@DependencyClient
public struct NumberFactClient: Sendable {
  public var fetch: @Sendable (_ number: Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  /// Facts computed locally, after a short think: no network.
  public static let liveValue = NumberFactClient { number in
    try await Task.sleep(for: .milliseconds(150))
    return NumberFacts.fact(about: number)
  }

  /// Every endpoint unimplemented: a test sets the ones its feature uses.
  public static let testValue = NumberFactClient()
}

extension DependencyValues {
  /// The number fact client of the demo's NumberFact feature.
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
