
extension TestStore {
  /// Waits for every running effect to end; fails the test if some still run after `timeout`.
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.receive(\.loaded) { $0.items = items }
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration = .seconds(1),
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    lastLocation = location
    guard await !waitUntil(timeout: timeout, { store.runningEffectCount == 0 }) else { return }
    reportTestFailure(
      """
      Expected effects to finish, but there are still effects in-flight after \(timeout).

      Advance the clocks the effects wait on, or cancel long-living effects before the end \
      of the test.
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
    let skipped = log.removeAllReceived()
    guard let last = skipped.last else {
      if strict { reportTestFailure("There were no received actions to skip.", at: location) }
      return
    }
    skip(last)
    if case .off(showSkippedAssertions: true) = exhaustivity {
      reportSkippedAssertion(
        "Skipped receiving \(skipped.count) \(actions(skipped.count)):\n\(dumpList(skipped.map(\.action)))",
        at: location)
    }
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
    store.send(.cancelEffects)
    _ = await waitUntil(timeout: .seconds(1)) { store.runningEffectCount == 0 }
  }
}
