extension Effect {
  /// Marks this effect's work as cancellable with `id`.
  ///
  /// Ids belong to one root store: two stores using the same id never cancel each other.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; a private `enum CancelID { case timer }` is typical.
  ///   - cancelInFlight: Cancel work already running under `id` before this one starts.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    switch operation {
    case .none: .none
    default: Self(.cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// Cancels the work running under `id` in this store.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(id: EffectID(id)))
  }
}

extension Effect {
  /// This effect with the ids it marks cancellable, cancels and throttles put in `namespace`:
  /// the effects of a presented or pushed feature, whose `.cancel(id:)` then reaches neither
  /// its parent's effects nor a sibling's with the same id, while its parent's still reaches
  /// its own. Its async operations run in the namespace too: their `Task.cancel(id:)` and
  /// `withTaskCancellation(id:)` mean the feature's own ids.
  func cancellationIDs(in namespace: some Hashable & Sendable) -> Self {
    switch operation {
    case .none, .send:
      return self
    case let .run(priority, operation):
      return Self(
        .run(priority) { send in
          await CancellationScope.$current.withValue(CancellationScope.current.appending(namespace)) {
            await operation(send)
          }
        })
    case let .merge(effects):
      return Self(.merge(effects.map { $0.cancellationIDs(in: namespace) }))
    case let .concatenate(effects):
      return Self(.concatenate(effects.map { $0.cancellationIDs(in: namespace) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Self(
        .cancellable(id: id.in(namespace), cancelInFlight: cancelInFlight, effect.cancellationIDs(in: namespace)))
    case let .cancel(id):
      return Self(.cancel(id: id.in(namespace)))
    case .throttle(var window, let effect):
      (window.id, window.pendingID) = (window.id.in(namespace), window.pendingID.in(namespace))
      return Self(.throttle(window, effect.cancellationIDs(in: namespace)))
    }
  }
}
