import Foundation
import Synchronization

/// Where test stores send their failures: to the test framework that runs the test.
///
/// `Composable` links no test framework, so server binaries never carry one. The
/// `ComposableTesting` library installs the reporter for Swift Testing and XCTest when it is
/// linked into a test process (list it among the test target's dependencies); `import
/// ComposableArchitecture` alone then gives a test file `TestStore`, as in TCA.
public protocol TestFailureReporter: Sendable {
  /// Fails the running test at `location`.
  func fail(_ message: String, at location: TestLocation)
  /// Shows an assertion a non-exhaustive test store skipped, without failing the test.
  func showSkippedAssertion(_ message: String, at location: TestLocation)
}

/// The installed ``TestFailureReporter``.
public enum TestFailureReporting {
  private static let installed = Mutex<(any TestFailureReporter)?>(nil)

  /// Sends test store failures to `reporter` from now on.
  public static func install(_ reporter: any TestFailureReporter) {
    installed.withLock { $0 = reporter }
  }

  static var reporter: (any TestFailureReporter)? { installed.withLock { $0 } }
}

/// Fails the running test at `location`; without a test framework, says so on standard error.
func reportTestFailure(_ message: String, at location: TestLocation) {
  guard let reporter = TestFailureReporting.reporter else {
    StandardErrorIssueReporter().reportIssue(
      "TestStore failure (link ComposableTesting into the test target to fail the test): " + message,
      at: location.sourceLocation)
    return
  }
  reporter.fail(message, at: location)
}

/// Shows an assertion that a non-exhaustive test store skipped, without failing the test.
func reportSkippedAssertion(_ message: String, at location: TestLocation) {
  guard let reporter = TestFailureReporting.reporter else {
    StandardErrorIssueReporter().reportIssue("Skipped assertion: " + message, at: location.sourceLocation)
    return
  }
  reporter.showSkippedAssertion(message, at: location)
}

extension TestLocation {
  var sourceLocation: SourceLocation {
    SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
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
