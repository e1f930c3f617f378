import Synchronization

extension DependencyValues {
  /// Makes stack element ids in order, `#0`, `#1`, ...: a sequence per test in tests, one
  /// per process when live. `StackState` numbers its elements per stack, so pushes do not
  /// take ids from it (README, "Porting from TCA").
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static let liveValue = StackElementIDGenerator.incrementing
  static var testValue: StackElementIDGenerator { TestScopedValues.value(for: Self.self) { .incrementing } }
}

/// Makes ``StackElementID``s: `stackElementID.next()`.
public struct StackElementIDGenerator: Sendable {
  private final class Counter: Sendable {
    let next = Mutex(0)
  }

  private let counter: Counter

  /// A generator starting at `#0`.
  public static var incrementing: Self { Self(counter: Counter()) }

  /// The id ``next()`` will make, without making it.
  public func peek() -> StackElementID {
    StackElementID(integerLiteral: counter.next.withLock { $0 })
  }

  /// A new id, one above the last.
  public func next() -> StackElementID {
    StackElementID(integerLiteral: counter.next.withLock { next in
      defer { next += 1 }
      return next
    })
  }

  /// A new id: the same as ``next()``.
  public func callAsFunction() -> StackElementID { next() }
}
