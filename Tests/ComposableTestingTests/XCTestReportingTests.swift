import ComposableArchitecture
import ComposableTesting
import XCTest

/// Under XCTest, a failing step fails the running test case at the step's line.
final class XCTestReportingTests: XCTestCase {
  private var captured: [(description: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    guard description.contains("A state change does not match expectation") else {
      return super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    captured.append((description, lineNumber))
  }

  func testStateMismatchFailsThisTestAtTheSendLine() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    let line = #line + 1
    await store.send(.incrementButtonTapped) { $0.count = 2 }

    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertTrue(captured.first?.description.contains("+ Counter.State(count: 1)") ?? false)
  }
}
