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
