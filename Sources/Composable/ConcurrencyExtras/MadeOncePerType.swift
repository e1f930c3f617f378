import Synchronization

/// Values made once per process, one per type: what a generic type would keep in a static
/// stored property, which Swift does not allow.
///
/// ```swift
/// static var shared: Self { MadeOncePerType.value { Self() } }
/// ```
enum MadeOncePerType {
  /// Every value made so far, by its type.
  private static let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

  /// The value of type `Value`, made by `make` the first time it is asked for. Two threads
  /// asking at once may both make it; one of the two is kept.
  static func value<Value: Sendable>(_ make: () -> Value) -> Value {
    let id = ObjectIdentifier(Value.self)
    if let known = values.withLock({ $0[id] }) as? Value { return known }
    let made = make()
    return values.withLock { values in
      if let known = values[id] as? Value { return known }
      values[id] = made
      return made
    }
  }
}
