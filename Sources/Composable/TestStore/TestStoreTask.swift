
/// The effects started by one `TestStore/send(_:assert:isolation:fileID:file:line:column:)`:
/// wait for them with ``finish(timeout:fileID:file:line:column:)`` or stop them with ``cancel()``.
///
/// ```swift
/// let task = await store.send(.task)
/// await store.receive(\.loaded) { $0.items = items }
/// await task.cancel()
/// ```
public struct TestStoreTask: Sendable {
  let rawValue: StoreTask
  let completion: EffectCompletion

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    rawValue.cancel()
    _ = await waitUntil(timeout: .seconds(1)) { completion.isDone }
  }

  /// Waits for the effects to end; fails the test if they are still running after `timeout`.
  public func finish(
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard await !waitUntil(timeout: timeout, { completion.isDone }) else { return }
    reportTestFailure(
      "Expected task to finish, but it is still in-flight after \(timeout).",
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Whether the effects were cancelled; true when the action started none.
  public var isCancelled: Bool { rawValue.isCancelled }
}
