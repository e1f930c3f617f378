import Synchronization

/// Test values made once per running test, so tests that run at once do not see each
/// other's: the storage of shared values, say. Outside a known test, one per process.
enum TestScopedValues {
  private struct Key: Hashable, @unchecked Sendable {
    let test: AnyHashable?
    let value: ObjectIdentifier
  }

  private static let values = Mutex<[Key: any Sendable]>([:])

  /// The running test's value for `key`, made with `make` the first time.
  static func value<Value: Sendable>(for key: Any.Type, make: () -> Value) -> Value {
    let key = Key(test: TestFrameworks.current?.currentTestID, value: ObjectIdentifier(key))
    return values.withLock { values in
      if let value = values[key] as? Value { return value }
      let value = make()
      values[key] = value
      return value
    }
  }
}
