/// The dependencies visible to the current task: the values of every ``DependencyKey``,
/// with overrides.
///
/// Stores run their reducers and effects with their own dependency values, so overriding a
/// dependency for one store (`Store(initialState:reducer:withDependencies:)`) never affects
/// another. Read a dependency with ``Dependency``; override with `withDependencies(_:operation:)-4xyl8`.
public struct DependencyValues: Sendable {
  /// The dependencies of the current task.
  @TaskLocal public static var current = DependencyValues()

  /// Set while a test value is read, to name the dependency in reports.
  @TaskLocal static var accessedName: String?

  /// Set while dependencies are being overridden (`withDependencies`), where reading a
  /// test value to change part of it is no use of it; and while a reducer runs with its
  /// effects dropped (``Reducer/droppingEffects()``), where what it reads for its effects is
  /// never used.
  @TaskLocal static var isSetting = false

  private var overrides = DependencyOverrides()

  /// Whether keys give their live or their test values: test values whenever tests run
  /// (a test framework is installed, see ``TestFramework``), live ones otherwise.
  public var context: DependencyContext = TestFrameworks.current == nil ? .live : .test

  /// Dependency values with no overrides, in the context of the process.
  public init() {}

  /// The value for `key`: an override when there is one, else the key's value for the context.
  ///
  /// `name` defaults to the calling property's name, used to name the dependency in reports.
  public subscript<Key: TestDependencyKey>(
    key: Key.Type, name name: StaticString = #function
  ) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] {
        return value as! Key.Value
      }
      let accessedName = "@Dependency(\\.\(name))"
      guard context == .test else {
        if let live = key as? any DependencyKey.Type { return Self.liveValue(of: live) as! Key.Value }
        if !Self.isSetting {
          reportIssue("\(accessedName) has no live implementation, but was used outside a test; its test value was used.")
        }
        return Key.testValue
      }
      return Self.$accessedName.withValue(accessedName) { Key.testValue }
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
    }
  }

  private static func liveValue<Key: DependencyKey>(of _: Key.Type) -> any Sendable { Key.liveValue }

  /// Runs `update` on `values` as overrides: reading a dependency there (to change part of
  /// it, `$0.numberFact.fetch = ...`) is not a use of it, so it reports nothing.
  public static func prepare(_ values: inout DependencyValues, with update: (inout DependencyValues) throws -> Void) rethrows {
    try $isSetting.withValue(true) { try update(&values) }
  }
}

/// Runs `operation` with dependencies changed by `update`; tasks it creates inherit them.
@discardableResult
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> Result
) rethrows -> Result {
  var values = DependencyValues.current
  try DependencyValues.prepare(&values, with: update)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs async `operation` with dependencies changed by `update`.
@discardableResult
public func withDependencies<Result>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result
) async rethrows -> Result {
  var values = DependencyValues.current
  try DependencyValues.prepare(&values, with: update)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}
