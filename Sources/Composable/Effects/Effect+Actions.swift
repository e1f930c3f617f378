extension Effect where Action: Sendable {
  /// The actions this effect sends, run outside a store: `for await action in effect.actions`.
  ///
  /// Its `cancellable(id:)` parts can be cancelled by `.cancel(id:)` effects and
  /// `Task.cancel(id:)`; ending the iteration cancels the effect.
  public var actions: AsyncStream<Action> {
    AsyncStream { continuation in
      let task = Task {
        await self.run { continuation.yield($0) }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  private func run(_ send: @escaping @Sendable (Action) -> Void) async {
    switch operation {
    case .none:
      return
    case let .send(action):
      guard !Task.isCancelled else { return }
      send(action)
    case let .run(_, operation):
      await operation(Send(send: send))
    case let .merge(effects):
      await withTaskGroup(of: Void.self) { group in
        for effect in effects { group.addTask { await effect.run(send) } }
      }
    case let .concatenate(effects):
      for effect in effects {
        guard !Task.isCancelled else { return }
        await effect.run(send)
      }
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { TaskCancellations.shared.cancel(id) }
      let task = Task { await effect.run(send) }
      let token = TaskCancellations.shared.insert(UncheckedSendable(task.cancel), for: id)
      await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
      TaskCancellations.shared.remove(token, for: id)
    case let .cancel(id):
      TaskCancellations.shared.cancel(id)
    case let .throttle(_, effect):
      await effect.run(send)
    }
  }
}
