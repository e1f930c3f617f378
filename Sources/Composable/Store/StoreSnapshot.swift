/// A store's state with its version: the number of state changes since the store began.
public struct StoreSnapshot<State: Sendable>: Sendable {
  public var state: State
  public var version: Int

  public init(state: State, version: Int) {
    self.state = state
    self.version = version
  }
}

/// Keeps a ``Store/observe(_:)`` callback registered until cancelled or deinitialized.
public final class StoreObservation: Sendable {
  private let onCancel: @Sendable () -> Void

  init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

  /// Stops the callbacks.
  public func cancel() { onCancel() }

  deinit { onCancel() }
}
