import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func expectedStoreFailurePasses() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  await XCTExpectFailure {
    await store.send(.incrementButtonTapped) { $0.count = 2 }
  } issueMatcher: {
    $0.compactDescription.contains("A state change does not match expectation")
  }
}

@Test
func failureTheMatcherRejectsStillFails() async {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  func sendExpectingAnotherFailure() async {
    await XCTExpectFailure {
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    } issueMatcher: {
      $0.compactDescription.contains("Received unexpected action")
    }
  }
  await withKnownIssue {
    await sendExpectingAnotherFailure()
  } matching: { issue in
    // The rejected failure, and the expected one that never came.
    issue.description.contains("A state change does not match expectation")
      || issue.description.contains("unmatched expected failure")
  }
}

@Test
func strictExpectationWithoutFailureFails() {
  withKnownIssue {
    XCTExpectFailure("The count is off") {
      _ = 1 + 1
    }
  } matching: { issue in
    issue.description.contains("Failed due to unmatched expected failure: The count is off")
  }
}

@Test
func nonStrictExpectationWithoutFailurePasses() {
  XCTExpectFailure(strict: false) {
    _ = 1 + 1
  }
  let options = XCTExpectedFailure.Options.nonStrict()
  XCTExpectFailure(options: options) {
    _ = 1 + 1
  }
}

@Test
func disabledExpectationLetsFailuresThrough() {
  withKnownIssue {
    XCTExpectFailure(enabled: false) {
      reportIssue("Something went wrong")
    }
  } matching: { issue in
    issue.description.contains("Something went wrong")
  }
}

@Test
func expectedIssueFromReportIssuePasses() {
  withExpectedIssue {
    reportIssue("Something went wrong")
  }
  withExpectedIssue {
    throw CancellationError()
  }
  withExpectedIssue(isIntermittent: true) {}
}

@Test
func missingExpectedIssueFails() {
  withKnownIssue {
    withExpectedIssue("Should fail") {}
  } matching: { issue in
    issue.description.contains("unmatched expected failure: Should fail")
  }
}
