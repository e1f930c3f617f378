/// A failure recorded in a test, as the `issueMatcher` of ``XCTExpectFailure(_:enabled:strict:fileID:filePath:line:column:issueMatcher:)``
/// sees it.
public struct XCTIssue: Sendable, CustomStringConvertible {
  /// The failure's message.
  public var compactDescription: String
  /// Where the failure was recorded.
  public var sourceLocation: SourceLocation

  public init(compactDescription: String, sourceLocation: SourceLocation) {
    self.compactDescription = compactDescription
    self.sourceLocation = sourceLocation
  }

  public var description: String { compactDescription }
}

/// Namespace of ``XCTExpectedFailure/Options``, as XCTest spells it.
public enum XCTExpectedFailure {
  /// How ``XCTExpectFailure(_:options:fileID:filePath:line:column:)`` matches failures.
  public final class Options {
    /// Which failures are expected; all of them by default.
    public var issueMatcher: (XCTIssue) -> Bool = { _ in true }
    /// When `false`, nothing is expected and failures fail the test as usual.
    public var isEnabled = true
    /// When `true`, the test fails if no expected failure is recorded.
    public var isStrict = true

    public init() {}

    /// Options that expect every failure, not strictly: a failure may or may not happen.
    public static func nonStrict() -> Options {
      let options = Options()
      options.isStrict = false
      return options
    }
  }
}
