/// A store's state with its version: the number of state changes since the store began.
///
/// It also records the values of the shared values the state held at that version
/// (``sharedValues``), so that encoding the snapshot later shows them as they were.
public struct StoreSnapshot<State: Sendable>: Sendable {
  public var state: State
  public var version: Int
  /// The shared values the state held, as of this version.
  public var sharedValues: SharedSnapshot

  public init(state: State, version: Int) {
    self.init(state: state, version: version, sharedValues: .empty)
  }

  init(state: State, version: Int, sharedValues: SharedSnapshot) {
    self.state = state
    self.version = version
    self.sharedValues = sharedValues
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
