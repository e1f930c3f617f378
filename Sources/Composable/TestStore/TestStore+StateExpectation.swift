
extension TestStore {
  /// Checks that a step took the state from `previous` to `actual` as
  /// `updateStateToExpectedResult` describes, as strictly as ``exhaustivity`` asks.
  ///
  /// Shared state is compared through frozen values: the expected state sees the shared
  /// values as last asserted (changed by the closure's `withLock` calls), the actual state
  /// sees `actualShared`, their values when the step ended.
  ///
  /// A closure that changes nothing fails a step, unless `allowsNoChange` (``assert(_:fileID:file:line:column:)``
  /// checks the state as it is, as TCA's does).
  func expectState(
    from previous: State,
    to actual: State,
    sharing actualShared: SharedValues,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    allowsNoChange: Bool = false,
    at location: TestLocation
  ) {
    let known = sharedValues.adding(actualShared)
    defer { sharedValues = known.merging(actualShared) }
    let assertion = SharedAssertion(expected: known, actual: actualShared)
    // Non-exhaustively, the closure applies to the actual state only (unless skipped
    // assertions are shown): what it checks there (`#expect($0.path.count == 1)`) need not
    // hold before the step.
    var expected = previous
    if exhaustivity == .on || exhaustivity == .off(showSkippedAssertions: true) {
      do {
        try assertion.run { try updateStateToExpectedResult?(&expected) }
      } catch {
        reportTestFailure("The state assertion threw an error: \(error)", at: location)
        return
      }
    }
    switch exhaustivity {
    case .on:
      if assertion.run({ expected != actual }) {
        let summary =
          updateStateToExpectedResult == nil
          ? "State was not expected to change, but a change occurred: …"
          : "A state change does not match expectation: …"
        reportTestFailure(
          stateMismatch(summary, expected: (expected, assertion.expected), actual: (actual, actualShared)),
          at: location)
      } else if !allowsNoChange, updateStateToExpectedResult != nil,
        !actualShared.hasWrites(since: sharedValues),
        SharedAssertion(expected: assertion.expected, actual: known).run({ expected == previous })
      {
        reportTestFailure(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to \
          state is expected, omit the trailing closure.
          """, at: location)
      }
    case let .off(showSkippedAssertions):
      // Only what the closure sets is checked: applied to the actual state, it must change nothing.
      let fromActual = SharedAssertion(expected: actualShared, actual: actualShared)
      var expectedFromActual = actual
      try? fromActual.run { try updateStateToExpectedResult?(&expectedFromActual) }
      if fromActual.run({ expectedFromActual != actual }) {
        reportTestFailure(
          stateMismatch(
            "A state change does not match expectation: …",
            expected: (expectedFromActual, fromActual.expected), actual: (actual, actualShared)),
          at: location)
      } else if showSkippedAssertions && assertion.run({ expected != actual }) {
        reportSkippedAssertion(
          stateMismatch(
            "A state change was not asserted: …",
            expected: (expected, assertion.expected), actual: (actual, actualShared)),
          at: location)
      }
    }
  }

  /// The failure message for two states, each dumped with the shared values it sees.
  private func stateMismatch(
    _ summary: String, expected: (State, SharedValues), actual: (State, SharedValues)
  ) -> String {
    let expectedDump = SharedAssertion(expected: expected.1, actual: nil).run { customDump(expected.0) }
    let actualDump = SharedAssertion(expected: actual.1, actual: nil).run { customDump(actual.0) }
    return """
      \(summary)

      \(textDiff(expectedDump, actualDump))

      (Expected: -, Actual: +)
      """
  }
}
