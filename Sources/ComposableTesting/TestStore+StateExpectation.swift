import Composable

extension TestStore {
  /// Checks that a step took the state from `previous` to `actual` as
  /// `updateStateToExpectedResult` describes, as strictly as ``exhaustivity`` asks.
  func expectState(
    from previous: State,
    to actual: State,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: TestLocation
  ) {
    var expected = previous
    do {
      try updateStateToExpectedResult?(&expected)
    } catch {
      reportTestFailure("The state assertion threw an error: \(error)", at: location)
      return
    }
    switch exhaustivity {
    case .on:
      if expected != actual {
        let summary =
          updateStateToExpectedResult == nil
          ? "State was not expected to change, but a change occurred: …"
          : "A state change does not match expectation: …"
        reportTestFailure(stateMismatch(summary, expected: expected, actual: actual), at: location)
      } else if updateStateToExpectedResult != nil && expected == previous {
        reportTestFailure(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to \
          state is expected, omit the trailing closure.
          """, at: location)
      }
    case let .off(showSkippedAssertions):
      // Only what the closure sets is checked: applied to the actual state, it must change nothing.
      var expectedFromActual = actual
      try? updateStateToExpectedResult?(&expectedFromActual)
      if expectedFromActual != actual {
        reportTestFailure(
          stateMismatch("A state change does not match expectation: …", expected: expectedFromActual, actual: actual),
          at: location)
      } else if showSkippedAssertions && expected != actual {
        reportSkippedAssertion(
          stateMismatch("A state change was not asserted: …", expected: expected, actual: actual), at: location)
      }
    }
  }

  private func stateMismatch(_ summary: String, expected: State, actual: State) -> String {
    """
    \(summary)

    \(dumpDiff(expected, actual))

    (Expected: -, Actual: +)
    """
  }
}
