
extension TestStore {
  /// Fails for received actions not yet asserted, then waits for every running effect to
  /// end; fails the test if some still run after `timeout` (the store's ``timeout`` by
  /// default).
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.receive(\.loaded) { $0.items = items }
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    reportUnhandledReceivedActions(at: location)
    let duration = timeout ?? self.timeout
    guard await !waitUntil(timeout: duration, { store.runningEffectCount == 0 }) else { return }
    reportAssertion(
      """
      Expected effects to finish, but there are still effects in-flight\(after(duration)).

      \(inFlightEffectsSuggestion(timeoutIsDefault: duration == self.timeout))
      """, at: location)
    reportedRunningEffects = true
  }

  /// Drops the actions received from effects that the test has not asserted.
  ///
  /// - Parameter strict: Fail the test when there is nothing to skip.
  public func skipReceivedActions(
    strict: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    await settle()
    if strict && log.receivedActions.isEmpty {
      return reportTestFailure("There were no received actions to skip.", at: location)
    }
    skipAllReceived(at: location, as: exhaustivity == .on ? .off(showSkippedAssertions: true) : exhaustivity)
  }

  /// Moves past every received action without asserting it, reporting them as skipped as
  /// strictly as `exhaustivity` asks.
  func skipAllReceived(at location: TestLocation, as exhaustivity: Exhaustivity) {
    let skipped = log.removeAllReceived()
    guard let last = skipped.last else { return }
    let dump = skipped.count == 1 ? customDump(skipped[0].action) : customDump(skipped.map(\.action))
    reportAssertion("\(receivedActionsWere(skipped.count)) skipped.\n\n\(dump)", at: location, as: exhaustivity)
    skip(last)
  }

  /// Cancels every running effect and waits for them to stop.
  ///
  /// - Parameter strict: Fail the test when no effect is running.
  public func skipInFlightEffects(
    strict: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    guard store.runningEffectCount > 0 else {
      if strict { reportTestFailure("There were no in-flight effects to skip.", at: location) }
      return
    }
    let origins = sentEffects.filter { !$0.completion.isDone }.map(\.action)
    let dump = origins.count == 1 ? origins[0] : .group(DumpGroup(kind: .collection, open: "[", close: "]"), origins.map { DumpChild(label: nil, node: $0) })
    reportAssertion(
      """
      \(origins.count) in-flight effect\(origins.count == 1 ? " was" : "s were") cancelled, originating from:

      \(dump.render(isRoot: true, maxDepth: .max))
      """, at: location, as: exhaustivity == .on ? .off(showSkippedAssertions: true) : exhaustivity)
    store.send(.cancelEffects)
    _ = await waitUntil(timeout: .seconds(1)) { store.runningEffectCount == 0 }
  }
}
