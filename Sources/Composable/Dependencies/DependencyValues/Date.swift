import Foundation

extension DependencyValues {
  /// The current date: the system clock when live; in tests, set it (for example with ``DateGenerator/constant(_:)``).
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
}

/// A function that tells the date: `date.now` or `date()`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// A generator calling `generate`.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date { generate() }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// Always `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}
