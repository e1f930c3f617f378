import Composable
import Foundation
import Synchronization
import Testing
import XCTest

@_exported import Composable

/// Swift Testing when a `@Test` is running, otherwise XCTest. Installed when this library
/// is loaded (see `CComposableTestingHook`).
struct SwiftTestingAndXCTest: TestFramework {
  /// The running `@Test`, or else the running XCTest case.
  var currentTestID: AnyHashable? {
    if let test = Test.current { return AnyHashable(test.id) }
    return XCTestCaseTracker.shared.current.withLock { $0 }.map { AnyHashable("XCTest case \($0)") }
  }

  func fail(_ message: String, at location: TestLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: testingLocation(location.sourceLocation))
    } else {
      XCTFail(message, file: location.filePath, line: location.line)
    }
  }

  func recordIssue(_ message: String, at location: Composable.SourceLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: testingLocation(location))
    } else {
      XCTFail("\(location.fileID):\(location.line): \(message)")
    }
  }

  /// A known issue under Swift Testing, a line on standard error under XCTest.
  func showSkippedAssertion(_ message: String, at location: TestLocation) {
    if Test.current != nil {
      withKnownIssue("Skipped assertion") {
        Issue.record(Comment(rawValue: message), sourceLocation: testingLocation(location.sourceLocation))
      }
    } else {
      StandardErrorIssueReporter().reportIssue(message, at: location.sourceLocation)
    }
  }

  /// A known issue under Swift Testing; nothing under XCTest, where it passes silently.
  func recordExpectedFailure(_ message: String, at location: Composable.SourceLocation) {
    guard Test.current != nil else { return }
    withKnownIssue {
      Issue.record(Comment(rawValue: message), sourceLocation: testingLocation(location))
    }
  }

  /// A teardown block of the running XCTest case; Swift Testing has no such hook.
  func atEndOfTest(_ body: @escaping @Sendable () -> Void) {
    guard Test.current == nil else { return }
    XCTestCaseTracker.shared.currentCase.withLock { $0?.value }?.addTeardownBlock(body)
  }

  private func testingLocation(_ location: Composable.SourceLocation) -> Testing.SourceLocation {
    Testing.SourceLocation(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
  }
}

/// Follows which XCTest case is running, for ``SwiftTestingAndXCTest/currentTestID``.
final class XCTestCaseTracker: NSObject, XCTestObservation, @unchecked Sendable {
  static let shared = XCTestCaseTracker()
  /// The number of the running test case, counted from the first: one per run of a method.
  let current = Mutex<Int?>(nil)
  /// The running test case itself.
  let currentCase = Mutex<UncheckedSendable<XCTestCase>?>(nil)
  private let started = Atomic<Int>(0)

  func testCaseWillStart(_ testCase: XCTestCase) {
    let number = started.add(1, ordering: .relaxed).newValue
    current.withLock { $0 = number }
    currentCase.withLock { $0 = UncheckedSendable(testCase) }
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    current.withLock { $0 = nil }
    currentCase.withLock { $0 = nil }
  }
}

/// Called once as the process loads this library, by a C constructor.
@_cdecl("composable_testing_install")
func installTestFramework() {
  TestFrameworks.install(SwiftTestingAndXCTest())
  XCTestObservationCenter.shared.addTestObserver(XCTestCaseTracker.shared)
}
