/// A key with its default value baked in, so `@Shared(.users) var users` needs no initial
/// value.
///
/// ```swift
/// extension SharedReaderKey where Self == FileStorageKey<[User]>.Default {
///   static var users: Self { Self[.fileStorage(.usersFile), default: []] }
/// }
/// ```
public struct SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  /// The key.
  public let base: Base
  /// The value used when nothing is stored.
  public let defaultValue: Base.Value

  /// `key` with `defaultValue`.
  public static subscript(_ key: Base, default defaultValue: Base.Value) -> Self {
    Self(base: key, defaultValue: defaultValue)
  }

  public var id: Base.ID { base.id }

  public func load() -> Base.Value? { base.load() }

  public func subscribe(_ didChange: @escaping @Sendable (Base.Value) -> Void) -> SharedSubscription {
    base.subscribe(didChange)
  }
}

extension SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value) { base.save(value) }
}

extension SharedReaderKey {
  /// This key with a default value: `Self[.appStorage("count"), default: 0]`.
  public typealias Default = SharedKeyDefault<Self>
}
