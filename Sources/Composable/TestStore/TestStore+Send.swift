
extension TestStore {
  /// Sends `action` to the feature and asserts how it changes the state.
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// Actions received from effects must all be asserted before sending another action.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - updateStateToExpectedResult: Changes the state from before the action into the
  ///     state expected after it. Omit it when the action should not change the state.
  /// - Returns: The effects the action started.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    guard !isDismissed else {
      reportTestFailure("Can't send action to dismissed test store.", at: location)
      let none = StoreTask(tasks: [])
      return TestStoreTask(rawValue: none, completion: EffectCompletion(watching: none), timeout: timeout)
    }
    handleReceivedBeforeSend(at: location)
    let task = IssueReporters.$current.withValue([TestStoreIssueReporter(location: location)]) {
      store.send(.send(action))
    }
    let completion = EffectCompletion(watching: task)
    if let step = log.takeSent() {
      expectState(
        from: step.before, to: step.after, sharing: step.sharedAfter, updateStateToExpectedResult,
        at: location)
      lastState = step.after
    }
    sentEffects.removeAll { $0.completion.isDone }
    sentEffects.append(SentEffects(action: DumpNode(action), location: location, completion: completion))
    await settle()
    return TestStoreTask(rawValue: task, completion: completion, timeout: timeout)
  }

  /// Sends the action a case key path names (a case without payload) and asserts how it
  /// changes the state: `await store.send(\.counter.incrementButtonTapped) { $0.counter.count = 1 }`.
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action(), assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line, column: column)
  }

  /// Sends the action a case key path names with `value` as its payload and asserts how it
  /// changes the state: `await store.send(\.binding.sliderValue, 2) { $0.sliderValue = 2 }`.
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action(value), assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line, column: column)
  }

  /// Asserts a change of state that happened outside of any action, such as a change of
  /// shared state made elsewhere, or what the state is now: as in TCA, a closure that
  /// changes nothing passes when the state already is as it says.
  ///
  /// ```swift
  /// store.assert {
  ///   $0.count = 42
  /// }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    let actual = state
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      expectState(
        from: lastState, to: actual, sharing: SharedValues(capturing: actual), update, allowsNoChange: true,
        at: location)
    }
    lastState = actual
  }

  /// Before a send: received actions left unasserted fail an exhaustive test (and stay to
  /// be received), and are skipped by a non-exhaustive one.
  private func handleReceivedBeforeSend(at location: TestLocation) {
    let unhandled = log.receivedActions
    guard !unhandled.isEmpty else { return }
    reportAssertion(
      """
      Must handle \(unhandled.count) received \(actions(unhandled.count)) before sending an action.

      Unhandled actions: \(customDump(unhandled))
      """, at: location)
    guard exhaustivity != .on else { return }
    skipAllReceived(at: location, as: exhaustivity)
  }
}
