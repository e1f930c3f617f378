import Foundation

/// A ``SharedKey`` for a simple value kept in an ``AppStorage``: ``SharedReaderKey/appStorage(_:)``.
public struct AppStorageKey<Value: Codable & Sendable>: SharedKey {
  private let key: String
  private let storage: AppStorage

  init(key: String, storage: AppStorage) {
    self.key = key
    self.storage = storage
  }

  public var id: AppStorageKeyID { AppStorageKeyID(storage: ObjectIdentifier(storage), key: key) }

  public func load() -> Value? {
    guard let data = storage.data(forKey: key) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  public func save(_ value: Value) {
    do {
      storage.set(try JSONEncoder().encode(value), forKey: key)
    } catch {
      reportIssue("Could not encode \(Value.self) for app storage key \"\(key)\": \(error)")
    }
  }

  public func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    .empty
  }
}

/// What an app storage key refers to: a key of a storage.
public struct AppStorageKeyID: Hashable, Sendable {
  let storage: ObjectIdentifier
  let key: String
}

extension SharedReaderKey {
  /// A simple value kept under `key` in the app storage:
  /// `@Shared(.appStorage("count")) var count = 0`.
  ///
  /// Where it is stored comes from ``DependencyValues/defaultAppStorage``: a file in the
  /// server's data directory, or memory in tests. Keys are process-wide: every session
  /// sees the same value.
  public static func appStorage<Value>(_ key: String) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key: key, storage: DependencyValues.current.defaultAppStorage)
  }
}
