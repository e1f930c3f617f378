
extension TestStore where Action: Equatable {
  /// Asserts that the next action received from an effect is `expectedAction`, and how it
  /// changes the state.
  ///
  /// ```swift
  /// await store.receive(.factResponse("0 is a good number.")) {
  ///   $0.fact = "0 is a good number."
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - expectedAction: The action the effect should send.
  ///   - timeout: How long to wait for a running effect to send an action; the store's
  ///     ``TestStore/timeout`` by default.
  ///   - updateStateToExpectedResult: Changes the state from before the action into the
  ///     state expected after it.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { $0 == expectedAction },
      failureMessage: "Expected to receive the following action, but didn't:\n\n\(customDump(expectedAction).indented(by: 2))",
      unexpectedActionDescription: { received in
        mismatch(expected: DumpNode(expectedAction), actual: DumpNode(received), actualLabel: "Received") {
          (String(describing: expectedAction), String(describing: received))
        }
      },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Asserts that the next action received from an effect is of the case `actionCase`
  /// names, whatever its payload, and how it changes the state.
  ///
  /// ```swift
  /// await store.receive(\.timerTick) {
  ///   $0.secondsElapsed = 1
  /// }
  /// ```
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      AnyCasePath(actionCase), timeout: timeout, assert: updateStateToExpectedResult, isolation: isolation,
      fileID: fileID, file: filePath, line: line, column: column)
  }

  /// Asserts that the next action received from an effect is of the case `actionCase`
  /// names with the payload `expectedValue`, and how it changes the state.
  ///
  /// ```swift
  /// await store.receive(\.factResponse, "0 is a good number.") {
  ///   $0.fact = "0 is a good number."
  /// }
  /// ```
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ expectedValue: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await receiveAction(
      matching: { casePath.extract(from: $0) == expectedValue },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpectedActionDescription: { received in
        let expected = DumpNode(casePath.embed(expectedValue))
        guard casePath.extract(from: received) != nil, let difference = expected.diff(DumpNode(received), format: .proportional)
        else { return customDump(received).indented(by: 2) }
        return "\(difference.indented(by: 2))\n\n(Expected: −, Actual: +)"
      },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next action received from an effect satisfies `isMatching`, and how
  /// it changes the state: `await store.receive { $0 == .loaded }`.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      failureMessage: "Expected to receive an action matching predicate, but didn't get one.",
      unexpectedActionDescription: { customDump($0).indented(by: 2) },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next action received from an effect is of the case `casePath`:
  /// `await store.receive(/Action.response)`.
  public func receive<Value>(
    _ casePath: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { casePath.extract(from: $0) != nil },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpectedActionDescription: { customDump($0).indented(by: 2) },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits for a received action while effects run, then asserts it: that it matches, and
  /// its state change. A non-exhaustive store skips received actions that do not match.
  private func receiveAction(
    matching matches: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpectedActionDescription: (Action) -> String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    timeout: Duration?,
    at location: TestLocation,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    lastLocation = location
    if store.runningEffectCount > 0 {
      await waitForReceivedAction(matching: matches, timeout: timeout ?? self.timeout, at: location)
    }
    receiveNow(
      matching: matches, failureMessage: failureMessage(), unexpectedActionDescription: unexpectedActionDescription,
      updateStateToExpectedResult, at: location)
    await settle()
  }

  /// Waits until an action to assert has arrived (a matching one, when non-exhaustive) or no
  /// effect runs; fails if effects still run after `timeout`.
  private func waitForReceivedAction(
    matching matches: (Action) -> Bool,
    timeout: Duration,
    at location: TestLocation,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let isExhaustive = exhaustivity == .on
    let arrived = await waitUntil(timeout: timeout) {
      let arrived = isExhaustive ? log.receivedCount > 0 : log.containsReceived(where: matches)
      // Without running effects, no more actions can arrive.
      return arrived || store.runningEffectCount == 0
    }
    guard !arrived else { return }
    reportTestFailure(
      """
      Expected to receive \(isExhaustive ? "an action" : "a matching action"), but received \
      none\(after(timeout)).

      \(inFlightEffectsSuggestion(timeoutIsDefault: timeout == self.timeout))
      """,
      at: location)
  }

  /// Asserts the first received action (the first matching one, when non-exhaustive).
  private func receiveNow(
    matching matches: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpectedActionDescription: (Action) -> String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: TestLocation
  ) {
    let isExhaustive = exhaustivity == .on
    guard let (skipped, step) = log.removeReceived(throughFirst: { isExhaustive || matches($0) }) else {
      return reportTestFailure(failureMessage(), at: location)
    }
    if let last = skipped.last {
      skip(last)
      reportAssertion("\(receivedActionsWere(skipped.count)) skipped.\n\n\(customDump(skipped.map(\.action)))", at: location)
    }
    if matches(step.action) {
      expectState(
        from: step.before, to: step.after, sharing: step.sharedAfter, updateStateToExpectedResult, at: location)
    } else {
      reportAssertion("Received unexpected action:\n\n\(unexpectedActionDescription(step.action))", at: location)
    }
    skip(step)
  }
}
