
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
  ///   - timeout: How long to wait for an effect to send an action.
  ///   - updateStateToExpectedResult: Changes the state from before the action into the
  ///     state expected after it.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration = .seconds(1),
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { $0 == expectedAction },
      mismatch: { received in
        """
        Received unexpected action: …

        \(dumpDiff(expectedAction, received))

        (Expected: -, Received: +)
        """
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
    timeout: Duration = .seconds(1),
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
    timeout: Duration = .seconds(1),
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
      mismatch: { received in
        guard let value = casePath.extract(from: received) else { return notOfTheExpectedCase(received) }
        return """
          Received unexpected action payload: …

          \(dumpDiff(expectedValue, value))

          (Expected: -, Received: +)
          """
      },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next action received from an effect satisfies `isMatching`, and how
  /// it changes the state: `await store.receive { $0 == .loaded }`.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration = .seconds(1),
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      mismatch: { "Received action without a match: …\n\n\(customDump($0))" },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next action received from an effect is of the case `casePath`:
  /// `await store.receive(/Action.response)`.
  public func receive<Value>(
    _ casePath: AnyCasePath<Action, Value>,
    timeout: Duration = .seconds(1),
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { casePath.extract(from: $0) != nil },
      mismatch: { notOfTheExpectedCase($0) },
      updateStateToExpectedResult, timeout: timeout,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits for a received action, checks it with `matches`, and asserts its state change.
  /// A non-exhaustive store skips received actions that do not match.
  private func receiveAction(
    matching matches: (Action) -> Bool,
    mismatch: (Action) -> String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    timeout: Duration,
    at location: TestLocation,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    lastLocation = location
    let isExhaustive = exhaustivity == .on
    _ = await waitUntil(timeout: timeout) {
      let arrived = isExhaustive ? log.receivedCount > 0 : log.containsReceived(where: matches)
      // Without running effects, no more actions can arrive.
      return arrived || store.runningEffectCount == 0
    }
    let step: TestStoreLog<State, Action>.Step
    if isExhaustive {
      guard let first = log.removeReceived(throughFirst: { _ in true })?.match else {
        return reportNothingReceived(timeout: timeout, at: location)
      }
      skip(first)
      guard matches(first.action) else { return reportTestFailure(mismatch(first.action), at: location) }
      step = first
    } else {
      guard let (skipped, match) = log.removeReceived(throughFirst: matches) else {
        return reportNothingReceived(timeout: timeout, at: location)
      }
      if case .off(showSkippedAssertions: true) = exhaustivity, !skipped.isEmpty {
        reportSkippedAssertion(
          "Skipped receiving \(skipped.count) \(actions(skipped.count)):\n\(dumpList(skipped.map(\.action)))",
          at: location)
      }
      step = match
    }
    lastState = step.after
    expectState(
      from: step.before, to: step.after, sharing: step.sharedAfter, updateStateToExpectedResult,
      at: location)
    await settle()
  }

  private func reportNothingReceived(timeout: Duration, at location: TestLocation) {
    let running = store.runningEffectCount > 0
    let what = exhaustivity == .on ? "an action" : "a matching action"
    reportTestFailure(
      running
        ? """
          Expected to receive \(what), but received none after \(timeout).

          An effect is still running: if it sends the action later, pass a longer "timeout", \
          or advance the clock it waits on.
          """
        : "Expected to receive \(what), but received none, and no effects are running.",
      at: location)
  }
}

/// The failure message for a received action of another case than the one expected.
private func notOfTheExpectedCase(_ received: some Any) -> String {
  """
  Received unexpected action: …

  \(indent(customDump(received)))

  It is not of the expected case.
  """
}
