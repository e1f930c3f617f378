/// The effects started by one `send`: await them with ``finish()`` or stop them with ``cancel()``.
public struct StoreTask: Hashable, Sendable {
  let tasks: [Task<Void, Never>]
  /// Whether the store refused the change the action would have made, leaving its state
  /// as it was (see ``Store/init(initialState:reducer:withDependencies:acceptingChange:observingActions:)``).
  @_spi(Hosting) public let isRefused: Bool

  init(tasks: [Task<Void, Never>], isRefused: Bool = false) {
    self.tasks = tasks
    self.isRefused = isRefused
  }

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
