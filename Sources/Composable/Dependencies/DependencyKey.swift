/// A key for a value in ``DependencyValues``, with the value used when the app runs and the
/// value used in tests.
///
/// ```swift
/// struct NumberFactClient: Sendable { var fetch: @Sendable (Int) async throws -> String }
///
/// extension NumberFactClient: DependencyKey {
///   static let liveValue = NumberFactClient { n in "\(n) is a good number." }
///   static let testValue = NumberFactClient { _ in unimplemented("NumberFactClient.fetch") }
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactClient.self] }
///     set { self[NumberFactClient.self] = newValue }
///   }
/// }
/// ```
public protocol DependencyKey {
  /// The type of the dependency.
  associatedtype Value: Sendable = Self
  /// The value used outside tests.
  static var liveValue: Value { get }
  /// The value used in tests (``DependencyContext/test``). Without one, using the
  /// dependency in a test reports an issue naming it, then falls back to ``liveValue``.
  static var testValue: Value { get }
}

extension DependencyKey {
  public static var testValue: Value {
    let name = DependencyValues.accessedName ?? "@Dependency(\(Self.self).self)"
    reportIssue(
      """
      \(name) has no test implementation, but was used in a test.

      Override it in the test, for example with TestStore's "withDependencies", or give \
      "\(Self.self)" a "testValue".
      """)
    return liveValue
  }
}

/// Which value a dependency key provides.
public enum DependencyContext: Sendable {
  /// The running app or server: ``DependencyKey/liveValue``.
  case live
  /// A test: ``DependencyKey/testValue``.
  case test
}
