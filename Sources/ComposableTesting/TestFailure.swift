import Composable
import Testing
import XCTest

@_exported import Composable

/// Swift Testing when a `@Test` is running, otherwise XCTest. Installed when this library
/// is loaded (see `CComposableTestingHook`).
struct SwiftTestingAndXCTest: TestFramework {
  /// The running `@Test`; XCTest cases run one at a time and share one set of values.
  var currentTestID: AnyHashable? { Test.current.map { AnyHashable($0.id) } }

  func fail(_ message: String, at location: TestLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
    } else {
      XCTFail(message, file: location.filePath, line: location.line)
    }
  }

  func recordIssue(_ message: String, at location: Composable.SourceLocation) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: Testing.SourceLocation(
          fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column))
    } else {
      XCTFail("\(location.fileID):\(location.line): \(message)")
    }
  }

  /// A known issue under Swift Testing, a line on standard error under XCTest.
  func showSkippedAssertion(_ message: String, at location: TestLocation) {
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
}

/// Called once as the process loads this library, by a C constructor.
@_cdecl("composable_testing_install")
func installTestFramework() {
  TestFrameworks.install(SwiftTestingAndXCTest())
}
