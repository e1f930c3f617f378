import Foundation
import Synchronization

/// The test framework running this process's tests: where test stores send their
/// failures, and which test is running.
///
/// `Composable` links no test framework, so server binaries never carry one. The
/// `ComposableTesting` library installs one for Swift Testing and XCTest when it is linked
/// into a test process (list it among the test target's dependencies); `import
/// ComposableArchitecture` alone then gives a test file `TestStore`, as in TCA, and
/// dependencies take their test values (``DependencyContext/test``) whenever tests run.
public protocol TestFramework: Sendable {
  /// Fails the running test at `location`.
  func fail(_ message: String, at location: TestLocation)
  /// Fails the running test with an issue the library reported at `location`
  /// (``reportIssue(_:fileID:filePath:line:column:)``).
  func recordIssue(_ message: String, at location: SourceLocation)
  /// Shows an assertion a non-exhaustive test store skipped, without failing the test.
  func showSkippedAssertion(_ message: String, at location: TestLocation)
  /// The running test, to keep test values (storage, say) apart between tests; `nil`
  /// where it is not known.
  var currentTestID: AnyHashable? { get }
  /// Shows a failure the test expected (``XCTExpectFailure(_:enabled:strict:fileID:filePath:line:column:issueMatcher:)``),
  /// without failing the test.
  func recordExpectedFailure(_ message: String, at location: SourceLocation)
  /// Runs `body` when the running test ends, before its result is known.
  func atEndOfTest(_ body: @escaping @Sendable () -> Void)
}

extension TestFramework {
  public func recordExpectedFailure(_ message: String, at location: SourceLocation) {}
  public func atEndOfTest(_ body: @escaping @Sendable () -> Void) {}
}

/// The installed ``TestFramework``.
public enum TestFrameworks {
  private static let installed = Mutex<(any TestFramework)?>(nil)

  /// Installs `framework` for the rest of the process: tests are running, and issues the
  /// library reports outside a test store fail the running test too.
  public static func install(_ framework: any TestFramework) {
    installed.withLock { $0 = framework }
    IssueReporters.global = [FrameworkIssueReporter(framework: framework)]
  }

  /// The installed framework: set in test processes only.
  static var current: (any TestFramework)? { installed.withLock { $0 } }
}

/// Fails the running test at `location`; without a test framework, says so on standard error.
func reportTestFailure(_ message: String, at location: TestLocation) {
  if FailureExpectations.expect(message, at: location.sourceLocation) {
    TestFrameworks.current?.recordExpectedFailure(message, at: location.sourceLocation)
    return
  }
  guard let reporter = TestFrameworks.current else {
    StandardErrorIssueReporter().reportIssue(
      "TestStore failure (link ComposableTesting into the test target to fail the test): " + message,
      at: location.sourceLocation)
    return
  }
  reporter.fail(message, at: location)
}

/// Shows an assertion that a non-exhaustive test store skipped, without failing the test,
/// under TCA's heading "Skipped assertions.".
func reportSkippedAssertion(_ message: String, at location: TestLocation) {
  let message = "Skipped assertions.\n\n" + message
  guard let reporter = TestFrameworks.current else {
    StandardErrorIssueReporter().reportIssue(message, at: location.sourceLocation)
    return
  }
  reporter.showSkippedAssertion(message, at: location)
}

extension TestLocation {
  /// The same place, as issues name it.
  public var sourceLocation: SourceLocation {
    SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// Sends issues to the installed test framework.
private struct FrameworkIssueReporter: IssueReporter {
  let framework: any TestFramework

  func reportIssue(_ message: String, at location: SourceLocation) {
    framework.recordIssue(message, at: location)
  }
}

/// Sends the core's issues (a dependency without a test value, an unhandled effect error)
/// to the running test, at the test store step that led to them. A test store installs it
/// task-locally around each step, so the effects the step starts inherit it.
struct TestStoreIssueReporter: IssueReporter {
  let location: TestLocation

  func reportIssue(_ message: String, at _: SourceLocation) {
    reportTestFailure(message, at: location)
  }
}
