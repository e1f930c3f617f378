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
  private var generate: @Sendable () -> Date

  /// A generator calling `generate`.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date. Setting it makes the generator always tell that date, as
  /// `$0.date.now = Date(timeIntervalSince1970: 0)` does in tests.
  public var now: Date {
    get { generate() }
    set { self = .constant(newValue) }
  }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// Always `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}
