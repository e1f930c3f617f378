/// Where `Task.cancel(id:)` and `withTaskCancellation(id:)` find work by id.
///
/// Inside an effect of a store, that is the store's root: its effects, and the work its
/// effects run with `withTaskCancellation`, in the namespaces of the feature whose effect is
/// running. So one session's effects never cancel another's with the same id. Outside any
/// store, it is the process. (Unchecked: its namespaces are only made from sendable values.)
struct CancellationScope: @unchecked Sendable {
  /// The root store whose effect is running; `nil` outside a store.
  let store: (any EffectCancelling)?
  /// The work started with `withTaskCancellation(id:)` in this scope.
  let tasks: TaskCancellations
  /// The presentations, outermost first, of the feature whose effect is running.
  private(set) var namespaces: [AnyHashable] = []

  /// The scope of the current task.
  @TaskLocal static var current = CancellationScope(store: nil, tasks: TaskCancellations())

  init(store: (any EffectCancelling)?, tasks: TaskCancellations) {
    self.store = store
    self.tasks = tasks
  }

  /// This scope for the effects of a feature presented in `namespace`.
  func appending(_ namespace: some Hashable & Sendable) -> Self {
    var scope = self
    scope.namespaces.append(AnyHashable(namespace))
    return scope
  }

  /// `id` as used by the feature whose effect is running.
  func effectID(_ id: some Hashable & Sendable) -> EffectID {
    EffectID(id, namespaces: namespaces)
  }

  /// Cancels the store's effects and the scope's work marked with `id`.
  func cancel(_ id: EffectID) {
    store?.cancelEffects(id)
    tasks.cancel(id)
  }
}

/// A root store, as seen by the effects it runs: it can cancel them by id.
protocol EffectCancelling: AnyObject, Sendable {
  /// Cancels the running effects marked with `id`.
  func cancelEffects(_ id: EffectID)
}
