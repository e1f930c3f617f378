/// A store's state with its version: the number of state changes since the store began.
///
/// It also records the values of the shared values the state held at that version
/// (``sharedValues``), so that encoding the snapshot later shows them as they were.
public struct StoreSnapshot<State: Sendable>: Sendable {
  /// The state, in storage its copies share: handing a snapshot on (to each observer, into
  /// a host's record of its versions) copies no state, and a copy would retain all it holds.
  private var storage: SnapshotStorage<State>
  public var version: Int
  /// The shared values the state held, as of this version.
  public var sharedValues: SharedSnapshot

  public var state: State {
    _read { yield storage.state }
    set { storage = SnapshotStorage(newValue) }
  }

  /// Calls `body` with the address of the state where the snapshot keeps it: read in place,
  /// not copied.
  func withUnsafeStatePointer<R>(_ body: (UnsafePointer<State>) throws -> R) rethrows -> R {
    try storage.withUnsafeStatePointer(body)
  }

  public init(state: State, version: Int) {
    self.init(state: state, version: version, sharedValues: .empty)
  }

  init(state: State, version: Int, sharedValues: SharedSnapshot) {
    self.storage = SnapshotStorage(state)
    self.version = version
    self.sharedValues = sharedValues
  }
}

/// A snapshot's state in a buffer its copies share, never changed once made (setting a
/// snapshot's state gives it a buffer of its own): so sendable, and read in place.
private struct SnapshotStorage<State: Sendable>: @unchecked Sendable {
  private let buffer: ManagedBuffer<State, Void>

  init(_ state: State) {
    buffer = .create(minimumCapacity: 0) { _ in state }
  }

  var state: State {
    _read { yield buffer.header }
  }

  func withUnsafeStatePointer<R>(_ body: (UnsafePointer<State>) throws -> R) rethrows -> R {
    try buffer.withUnsafeMutablePointerToHeader { try body(UnsafePointer($0)) }
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
