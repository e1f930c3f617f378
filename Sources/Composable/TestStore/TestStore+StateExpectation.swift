
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
    // The closure runs with the feature's dependencies (`@Dependency(\.date.now) var now` in
    // it reads the test's date), and lets XCTModify leave values unchanged when non-exhaustive.
    let isExhaustive = exhaustivity == .on
    let dependencies = self.dependencies
    let updateStateToExpectedResult = updateStateToExpectedResult.map { update in
      { (state: inout State) throws in
        try DependencyValues.$current.withValue(dependencies) {
          try XCTModifyLocals.$isExhaustive.withValue(isExhaustive) { try update(&state) }
        }
      }
    }
    let known = sharedValues.adding(actualShared)
    defer { sharedValues = known.merging(actualShared) }
    let assertion = SharedAssertion(expected: known, actual: actualShared)
    let heading =
      updateStateToExpectedResult == nil
      ? "State was not expected to change, but a change occurred"
      : "A state change does not match expectation"
    /// Whether the closure left the state as it was before the step, shared values included.
    func changedNothing(_ expected: State) -> Bool {
      !allowsNoChange && updateStateToExpectedResult != nil && !actualShared.hasWrites(since: sharedValues)
        && SharedAssertion(expected: assertion.expected, actual: known).run({ expected == previous })
    }
    let noChange = """
      Expected state to change, but no change occurred.

      The trailing closure made no observable modifications to state. If no change to state is \
      expected, omit the trailing closure.
      """
    if exhaustivity != .on {
      // Non-exhaustively, the closure applies to the actual state: what it sets must hold
      // there, whatever else changed.
      let fromActual = SharedAssertion(expected: actualShared, actual: actualShared)
      var expectedFromActual = actual
      do {
        try fromActual.run { try updateStateToExpectedResult?(&expectedFromActual) }
      } catch {
        return reportTestFailure("Threw error: \(error)", at: location)
      }
      guard !fromActual.run({ expectedFromActual != actual }) else {
        return reportTestFailure(
          stateMismatch(heading, expected: (expectedFromActual, fromActual.expected), actual: (actual, actualShared)),
          at: location)
      }
      guard exhaustivity == .off(showSkippedAssertions: true) else { return }
    }
    // Exhaustively, or to show what a non-exhaustive store skipped: the closure applies to
    // the state before the step and must give the actual state.
    var expected = previous
    do {
      try assertion.run { try updateStateToExpectedResult?(&expected) }
    } catch {
      return reportAssertion("Threw error: \(error)", at: location)
    }
    if assertion.run({ expected != actual }) {
      reportAssertion(
        stateMismatch(heading, expected: (expected, assertion.expected), actual: (actual, actualShared)),
        at: location)
    } else if changedNothing(expected) {
      reportAssertion(noChange, at: location)
    }
  }

  /// The failure message for two states, each dumped with the shared values it sees.
  private func stateMismatch(
    _ heading: String, expected: (State, SharedValues), actual: (State, SharedValues)
  ) -> String {
    func dump(_ side: (State, SharedValues)) -> DumpNode {
      SharedAssertion(expected: side.1, actual: nil).run { DumpNode(side.0) }
    }
    func describe(_ side: (State, SharedValues)) -> String {
      SharedAssertion(expected: side.1, actual: nil).run { String(describing: side.0) }
    }
    let difference = mismatch(expected: dump(expected), actual: dump(actual), actualLabel: "Actual") {
      (describe(expected), describe(actual))
    }
    return "\(heading).\n\n\(difference)"
  }
}
