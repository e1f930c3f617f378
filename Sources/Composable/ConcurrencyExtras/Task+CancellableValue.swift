extension Task where Failure == Never {
  /// The task's value; cancelling the task that waits for it cancels this task too.
  public var cancellableValue: Success {
    get async {
      await withTaskCancellationHandler { await value } onCancel: { cancel() }
    }
  }
}

extension Task where Failure == any Error {
  /// The task's value; cancelling the task that waits for it cancels this task too.
  public var cancellableValue: Success {
    get async throws {
      try await withTaskCancellationHandler { try await value } onCancel: { cancel() }
    }
  }
}
