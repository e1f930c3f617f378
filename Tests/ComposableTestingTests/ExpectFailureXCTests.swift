import ComposableArchitecture
import ComposableTesting
import XCTest

/// Under XCTest, `XCTExpectFailure` without a block expects a failure for the rest of the
/// test, as TCA's own tests of `TestStore` use it.
final class ExpectFailureXCTests: XCTestCase {
  private var failures: [String] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    guard description.contains("unmatched expected failure") else {
      return super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    failures.append(description)
  }

  func testExpectedFailuresForTheRestOfTheTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    XCTExpectFailure {
      $0.compactDescription.contains("A state change does not match expectation")
    }
    await store.send(.incrementButtonTapped) { $0.count = 2 }

    XCTExpectFailure()
    await store.send(.incrementButtonTapped) { $0.count = 3 }
  }

  func testBlockFormUnderXCTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await XCTExpectFailure {
      await store.send(.incrementButtonTapped)
    } issueMatcher: {
      $0.compactDescription.contains("State was not expected to change")
    }
  }

  func testUnmatchedStrictExpectationFailsAtTheEnd() async {
    addTeardownBlock { [self] in
      XCTAssertEqual(failures.count, 1)
    }
    XCTExpectFailure("Nothing fails")
  }
}
