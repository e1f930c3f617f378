
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
  /// The test store's ``TestStore/timeout`` when the task was made.
  let timeout: Duration

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    rawValue.cancel()
    _ = await waitUntil(timeout: .seconds(1)) { completion.isDone }
  }

  /// Waits for the effects to end; fails the test if they are still running after `timeout`
  /// (the test store's ``TestStore/timeout`` by default).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let duration = timeout ?? self.timeout
    guard await !waitUntil(timeout: duration, { completion.isDone }) else { return }
    let timeoutAdvice =
      duration == self.timeout
      ? #"configure this assertion with an explicit "timeout""#
      : #"try increasing the duration of this assertion's "timeout""#
    reportTestFailure(
      """
      Expected task to finish, but it is still in-flight\(after(duration)).

      If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
      "timer(interval:)", etc.), make sure that you wait enough time for it to perform its \
      work. If you are using a test clock/scheduler, advance the scheduler so that the effects \
      may complete, or consider using an immediate clock/scheduler to immediately perform the \
      effect instead.

      If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, \
      \(timeoutAdvice).
      """,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Whether the effects were cancelled; true when the action started none.
  public var isCancelled: Bool { rawValue.isCancelled }
}

extension TestStoreTask {
  /// The test store task of `rawValue`, or of no work when it is `nil`, with `timeout` as
  /// the default of ``finish(timeout:fileID:file:line:column:)``.
  public init(rawValue: Task<Void, Never>?, timeout: Duration) {
    let task = StoreTask(tasks: rawValue.map { [$0] } ?? [])
    self.init(rawValue: task, completion: EffectCompletion(watching: task), timeout: timeout)
  }
}
