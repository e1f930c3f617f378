extension Effect where Action: Sendable {
  /// The actions this effect sends, run outside a store: `for await action in effect.actions`.
  ///
  /// Its `cancellable(id:)` parts can be cancelled by `.cancel(id:)` effects and
  /// `Task.cancel(id:)` (those of the process, or of the store whose effect iterates it);
  /// ending the iteration cancels the effect.
  public var actions: AsyncStream<Action> {
    AsyncStream { continuation in
      let task = Task {
        await self.run(within: []) { continuation.yield($0) }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// Runs the effect, inside the `cancellable(id:)` parts marked with `enclosingIDs`.
  private func run(within enclosingIDs: [EffectID], _ send: @escaping @Sendable (Action) -> Void) async {
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
        for effect in effects { group.addTask { await effect.run(within: enclosingIDs, send) } }
      }
    case let .concatenate(effects):
      for effect in effects {
        guard !Task.isCancelled else { return }
        await effect.run(within: enclosingIDs, send)
      }
    case let .cancellable(id, cancelInFlight, effect):
      let scope = CancellationScope.current
      // Work inside work with the same id is not in flight before it: the outer part cancelled that.
      if cancelInFlight && !enclosingIDs.contains(id) { scope.cancel(id) }
      let task = Task { await effect.run(within: enclosingIDs + [id], send) }
      let token = scope.tasks.insert(UncheckedSendable(task.cancel), for: id.withEnclosingNamespaces)
      await task.cancellableValue
      scope.tasks.remove(token, for: id.withEnclosingNamespaces)
    case let .cancel(id):
      CancellationScope.current.cancel(id)
    case let .throttle(_, effect):
      await effect.run(within: enclosingIDs, send)
    }
  }
}
