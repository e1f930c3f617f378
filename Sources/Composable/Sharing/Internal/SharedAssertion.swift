import Synchronization

/// The shared values of a state, frozen: each box with the root value it held or is
/// expected to hold. Test stores compare states through them, since the states themselves
/// only hold references.
package struct SharedValues: @unchecked Sendable {
  private var values: [ObjectIdentifier: (box: AnySharedBox, value: any Sendable, generation: UInt64)] = [:]

  package init() {}

  /// The current values of the shared values held by `state`.
  package init<State>(capturing state: State) {
    for box in SharedScan.boxes(in: state) {
      let generation = box.generation.load(ordering: .sequentiallyConsistent)
      values[ObjectIdentifier(box)] = (box, box.anyValue, generation)
    }
  }

  /// Whether a shared value known to `earlier` has been written since, even with an equal
  /// value: `withLock { $0 = 0 }` on a zero is a change a test asserts.
  package func hasWrites(since earlier: SharedValues) -> Bool {
    values.contains { id, entry in earlier.values[id].map { $0.generation != entry.generation } ?? false }
  }

  /// These values, with `other`'s where both have one.
  package func merging(_ other: SharedValues) -> SharedValues {
    var merged = self
    merged.values.merge(other.values) { _, new in new }
    return merged
  }

  /// These values, plus `other`'s for the boxes missing here.
  package func adding(_ other: SharedValues) -> SharedValues {
    var merged = self
    merged.values.merge(other.values) { old, _ in old }
    return merged
  }

  func root(of box: AnySharedBox) -> (any Sendable)? {
    values[ObjectIdentifier(box)]?.value
  }

  mutating func withRoot<R>(
    of box: AnySharedBox, _ body: (inout any Sendable) throws -> R
  ) rethrows -> R? {
    guard var entry = values[ObjectIdentifier(box)] else { return nil }
    defer { values[ObjectIdentifier(box)] = entry }
    return try body(&entry.value)
  }
}

/// While a test store checks a state assertion, shared values are read from frozen
/// ``SharedValues`` instead of their boxes: the expected state's reads and `withLock`
/// changes go to ``expected``, and `==` compares its left side (the expected state) from
/// ``expected`` with its right side from ``actual``.
package final class SharedAssertion: @unchecked Sendable {
  /// How many assertions are running in the process: shared reads look for one only then.
  private static let running = Atomic<Int>(0)
  @TaskLocal private static var current: SharedAssertion?

  /// The values the expected state sees; `withLock` in the assertion changes them.
  package private(set) var expected: SharedValues
  /// The values the right side of `==` sees; `nil` reads the boxes.
  private let actual: SharedValues?

  package init(expected: SharedValues, actual: SharedValues?) {
    self.expected = expected
    self.actual = actual
  }

  /// Runs `body` with shared values read as this assertion says.
  package func run<R>(_ body: () throws -> R) rethrows -> R {
    Self.running.add(1, ordering: .sequentiallyConsistent)
    defer { Self.running.subtract(1, ordering: .sequentiallyConsistent) }
    return try Self.$current.withValue(self, operation: body)
  }

  /// The assertion running on this task, if any.
  static var active: SharedAssertion? {
    guard running.load(ordering: .relaxed) > 0 else { return nil }
    return current
  }

  func expectedValue<Value>(of reference: any SharedReference<Value>) -> Value {
    guard let root = expected.root(of: reference.box) else { return reference.value }
    return reference.read(fromRoot: root)
  }

  func actualValue<Value>(of reference: any SharedReference<Value>) -> Value {
    guard let root = actual?.root(of: reference.box) else { return reference.value }
    return reference.read(fromRoot: root)
  }

  func mutateExpected<Value, R>(
    _ reference: any SharedReference<Value>, _ body: (inout Value) throws -> R
  ) rethrows -> R {
    let result = try expected.withRoot(of: reference.box) { root in
      try reference.write(intoRoot: &root, body)
    }
    if let result { return result }
    // A shared value the state under test does not hold (for example, one the assertion
    // itself created): change it for real.
    return try reference.withLock(body)
  }
}
