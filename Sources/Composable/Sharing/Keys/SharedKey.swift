/// Where a ``SharedReader`` value comes from: loads it and reports changes made elsewhere.
///
/// Conform to it (or to ``SharedKey``, which also saves) to persist shared state your own
/// way. Every ``Shared`` made from keys with equal ``id``s in one process refers to one
/// value, loaded once.
///
/// ```swift
/// struct RemoteConfigKey: SharedReaderKey {
///   var id: String { "remote-config" }
///   func load() -> Config? { Config.cached }
///   func subscribe(_ didChange: @escaping @Sendable (Config) -> Void) -> SharedSubscription {
///     let token = Config.onUpdate(didChange)
///     return SharedSubscription { token.cancel() }
///   }
/// }
/// ```
public protocol SharedReaderKey<Value>: Sendable {
  /// The type of the value.
  associatedtype Value: Sendable
  /// What identifies the stored value.
  associatedtype ID: Hashable & Sendable
  /// Keys with equal ids share one value in the process.
  var id: ID { get }
  /// The stored value, or `nil` when none is stored: the `@Shared` default is used then.
  func load() -> Value?
  /// Calls `didChange` with each value changed outside this process's shared values (for
  /// example, a file edited on disk), until the subscription ends.
  func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription
}

/// A ``SharedReaderKey`` that also saves: every change made with ``Shared/withLock(_:)``
/// is passed to ``save(_:)``.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves `value`. Called under the shared value's lock after each change, so it should be
  /// quick (keep the value, write it later).
  func save(_ value: Value)
}

/// Keeps a subscription alive until it is cancelled or released.
public final class SharedSubscription: Sendable {
  private let onCancel: @Sendable () -> Void

  /// A subscription that calls `onCancel` when cancelled or released.
  public init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

  /// A subscription with nothing to cancel.
  public static var empty: SharedSubscription { SharedSubscription {} }

  /// Ends the subscription. Calling it more than once is harmless when `onCancel` is.
  public func cancel() { onCancel() }

  deinit { onCancel() }
}

/// A ``SharedKey`` whose stored value other processes change too (a database shared by a
/// cluster): ``Shared/withLock(_:)`` hands the change to ``update(from:_:)``, which applies it
/// to the latest stored value and stores the result only if nobody stored another one
/// meanwhile, running the change again on the fresher value until it lands. So concurrent
/// increments from many processes all count.
///
/// `save(_:)` still stores values set without a change to apply.
public protocol AtomicSharedKey<Value>: SharedKey {
  /// Applies `change` to the latest stored value and stores the result atomically (for
  /// example by compare-and-set on a version), calling `change` again on a fresher value
  /// each time another writer came first; returns the value stored. `current` is this
  /// process's value, for when nothing is stored yet.
  ///
  /// Called without the shared value's lock, so it may wait for its storage without
  /// holding up readers, and possibly by several threads of this process at once. Before
  /// it returns, it tells its subscribers (`subscribe(_:)`, which the shared value listens
  /// to) of the value stored; the shared value then takes the key's latest value
  /// (`load()`), so values stored concurrently end with the newest.
  func update(from current: Value, _ change: (inout Value) throws -> Void) rethrows -> Value
}
