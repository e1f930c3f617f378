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
    self.init(storage: SnapshotStorage(state), version: version, sharedValues: sharedValues)
  }

  /// A snapshot of the state kept in `storage`, which it shares.
  init(storage: SnapshotStorage<State>, version: Int, sharedValues: SharedSnapshot = .empty) {
    self.storage = storage
    self.version = version
    self.sharedValues = sharedValues
  }
}

/// A state in a buffer its copies share, read in place. A root store keeps its state in one
/// and its snapshots share it, so a session's store and its latest version hold one copy.
/// The buffer is changed only through the one reference to it (``withUniqueState(_:)``
/// copies it first otherwise): a buffer anything else can see never changes, so it is
/// sendable.
struct SnapshotStorage<State: Sendable>: @unchecked Sendable {
  private var buffer: ManagedBuffer<State, Void>

  init(_ state: State) {
    buffer = .create(minimumCapacity: 0) { _ in state }
  }

  var state: State {
    _read { yield buffer.header }
  }

  /// Calls `body` to change the state, in this storage's own buffer: made first, as a copy,
  /// when another storage or snapshot shares the buffer.
  mutating func withUniqueState<R>(_ body: (inout State) throws -> R) rethrows -> R {
    if !isKnownUniquelyReferenced(&buffer) {
      let shared = buffer
      buffer = .create(minimumCapacity: 0) { _ in shared.header }
    }
    return try buffer.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
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
