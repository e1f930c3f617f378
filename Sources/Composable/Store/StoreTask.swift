/// The effects started by one `send`: await them with ``finish()`` or stop them with ``cancel()``.
public struct StoreTask: Hashable, Sendable {
  let tasks: [Task<Void, Never>]

  init(tasks: [Task<Void, Never>]) { self.tasks = tasks }

  /// Cancels the effects.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Waits until the effects have finished. Cancelling the waiting task cancels them.
  public func finish() async {
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
    } onCancel: {
      cancel()
    }
  }

  /// Whether the effects were cancelled; true when the action started none.
  public var isCancelled: Bool { tasks.allSatisfy(\.isCancelled) }
}
