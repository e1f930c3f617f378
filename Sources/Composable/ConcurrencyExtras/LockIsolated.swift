import Synchronization

/// A value behind a lock, readable and changeable from any thread: a test's record of what
/// an endpoint was called with.
///
/// ```swift
/// let searches = LockIsolated<[String]>([])
/// $0.weatherClient.search = { query in searches.withValue { $0.append(query) }; return [] }
/// #expect(searches.value == ["Paris"])
/// ```
@dynamicMemberLookup
public final class LockIsolated<Value>: @unchecked Sendable {
  private var _value: Value
  private let lock = Mutex(())

  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self._value = try value()
  }

  /// The value now.
  public var value: Value {
    lock.withLock { _ in _value }
  }

  public subscript<Subject: Sendable>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    lock.withLock { _ in _value[keyPath: keyPath] }
  }

  /// Runs `operation` on the value, holding the lock.
  public func withValue<T: Sendable>(_ operation: @Sendable (inout Value) throws -> T) rethrows -> T {
    try lock.withLock { _ in try operation(&_value) }
  }

  /// Replaces the value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    try lock.withLock { _ in _value = try newValue() }
  }
}

extension LockIsolated: Equatable where Value: Equatable {
  public static func == (lhs: LockIsolated, rhs: LockIsolated) -> Bool { lhs.value == rhs.value }
}

extension LockIsolated: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
