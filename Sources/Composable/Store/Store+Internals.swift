extension Store {
  /// The root store's running effects, by id: empty once every effect has finished or been
  /// cancelled. TCA's own tests count them; features ask ``runningEffectCount``.
  @_spi(Internals) public var effectCancellables: [UInt64: StoreTask] {
    core.runningEffectTasks.mapValues { StoreTask(tasks: [$0]) }
  }

  /// Sends `action` and returns a task that finishes with the effects it started, or `nil`
  /// when it started none; cancelling the task cancels them. TCA's older form of `send(_:)`,
  /// still used by its tests: `await store.send(.tap)?.value`.
  @_spi(Internals) @_disfavoredOverload @discardableResult
  public func send(_ action: Action) -> Task<Void, Never>? {
    let effects: StoreTask = send(action)
    guard !effects.tasks.isEmpty else { return nil }
    return Task { await effects.finish() }
  }
}
