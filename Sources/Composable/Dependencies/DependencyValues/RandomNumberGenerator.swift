import Synchronization

extension DependencyValues {
  /// A random number generator: the system's when live; in tests, a seeded one.
  ///
  /// ```swift
  /// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  /// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
  /// ```
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}

private enum WithRandomNumberGeneratorKey: DependencyKey {
  static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())
}

/// Gives exclusive access to a random number generator.
public final class WithRandomNumberGenerator: @unchecked Sendable {
  private let lock = Mutex(())
  /// Guarded by `lock`.
  private var generator: any RandomNumberGenerator

  /// Shares `generator`, one caller at a time.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = generator
  }

  /// Calls `work` with the generator.
  public func callAsFunction<Result>(
    _ work: (inout any RandomNumberGenerator) throws -> Result
  ) rethrows -> Result {
    try lock.withLock { _ in try work(&generator) }
  }
}

/// A small, fast, seedable generator (SplitMix64) for predictable tests.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { self.state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
