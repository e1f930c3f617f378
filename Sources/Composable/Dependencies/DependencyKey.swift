/// A key for a value in ``DependencyValues`` that tests use: a client's interface, say,
/// declared in a module that does not know its live implementation.
public protocol TestDependencyKey {
  /// The type of the dependency.
  associatedtype Value: Sendable = Self
  /// The value used in tests (``DependencyContext/test``).
  static var testValue: Value { get }
  /// The value used in previews; by default ``testValue``.
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  public static var previewValue: Value { testValue }
}

/// A key for a value in ``DependencyValues``, with the value used when the app runs and the
/// value used in tests.
///
/// ```swift
/// struct NumberFactClient: Sendable { var fetch: @Sendable (Int) async throws -> String }
///
/// extension NumberFactClient: DependencyKey {
///   static let liveValue = NumberFactClient { n in "\(n) is a good number." }
///   static let testValue = NumberFactClient(fetch: unimplemented("NumberFactClient.fetch"))
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactClient.self] }
///     set { self[NumberFactClient.self] = newValue }
///   }
/// }
/// ```
public protocol DependencyKey: TestDependencyKey {
  /// The type of the dependency.
  associatedtype Value = Self
  /// The value used outside tests.
  static var liveValue: Value { get }
}

extension DependencyKey {
  /// Without a test value, using the dependency in a test reports an issue naming it, then
  /// falls back to ``liveValue``. Overriding it (in `withDependencies`) reports nothing.
  public static var testValue: Value {
    if !DependencyValues.isSetting {
      let name = DependencyValues.accessedName ?? "@Dependency(\(Self.self).self)"
      reportIssue(
        """
        \(name) has no test implementation, but was used in a test.

        Override it in the test, for example with TestStore's "withDependencies", or give \
        "\(Self.self)" a "testValue".
        """)
    }
    return liveValue
  }

  public static var previewValue: Value { liveValue }
}

/// Which value a dependency key provides.
public enum DependencyContext: Sendable {
  /// The running app or server: ``DependencyKey/liveValue``.
  case live
  /// A test: ``TestDependencyKey/testValue``.
  case test
}
