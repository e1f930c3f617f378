import Composable
import Testing
import XCTest

/// Fails the running test at `location`: through Swift Testing when a `@Test` is running,
/// otherwise through XCTest.
func reportTestFailure(_ message: String, at location: TestLocation) {
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
  } else {
    XCTFail(message, file: location.filePath, line: location.line)
  }
}

/// Shows an assertion that a non-exhaustive test store skipped, without failing the test:
/// a known issue under Swift Testing, a line on standard error under XCTest.
func reportSkippedAssertion(_ message: String, at location: TestLocation) {
  if Test.current != nil {
    withKnownIssue("Skipped assertion") {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
    }
  } else {
    StandardErrorIssueReporter().reportIssue(
      "Skipped assertion: " + message,
      at: Composable.SourceLocation(
        fileID: "\(location.fileID)", filePath: "\(location.filePath)",
        line: Int(location.line), column: Int(location.column)))
  }
}

private func sourceLocation(_ location: TestLocation) -> Testing.SourceLocation {
  Testing.SourceLocation(
    fileID: "\(location.fileID)", filePath: "\(location.filePath)",
    line: Int(location.line), column: Int(location.column))
}

/// Sends the core's issues (a dependency without a test value, an unhandled effect error)
/// to the running test, at the test store step that led to them. A test store installs it
/// task-locally around each step, so the effects the step starts inherit it.
struct TestStoreIssueReporter: IssueReporter {
  let location: TestLocation

  func reportIssue(_ message: String, at _: Composable.SourceLocation) {
    reportTestFailure(message, at: location)
  }
}
