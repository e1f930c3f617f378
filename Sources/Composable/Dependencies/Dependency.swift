/// Reads a dependency of the current task: `@Dependency(\.uuid) var uuid`.
///
/// The value is looked up each time it is read, so a reducer and the effects it returns
/// see the dependencies of the store that runs them.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable

  /// A dependency at `keyPath` of ``DependencyValues``.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// The dependency's current value.
  public var wrappedValue: Value {
    DependencyValues.current[keyPath: keyPath]
  }
}
