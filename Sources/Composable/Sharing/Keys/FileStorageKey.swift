import Foundation

/// A ``SharedKey`` for a `Codable` value kept as JSON in a file:
/// `SharedReaderKey/fileStorage(_:decoder:encoder:)`.
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey {
  private let url: URL
  private let storage: FileStorage

  init(url: URL, storage: FileStorage) {
    self.url = url
    self.storage = storage
  }

  public var id: FileStorageKeyID {
    FileStorageKeyID(storage: ObjectIdentifier(storage), path: url.standardizedFileURL.path)
  }

  public func load() -> Value? {
    guard let data = storage.load(url) else { return nil }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      reportIssue("Could not decode \(Value.self) from \(url.path): \(error)")
      return nil
    }
  }

  public func save(_ value: Value) {
    do {
      storage.save(try Self.encoder.encode(value), to: url)
    } catch {
      reportIssue("Could not encode \(Value.self) for \(url.path): \(error)")
    }
  }

  public func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    storage.subscribe(url) { data in
      guard let value = try? JSONDecoder().decode(Value.self, from: data) else { return }
      didChange(value)
    }
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return encoder
  }
}

/// What a file storage key refers to: a file of a storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let storage: ObjectIdentifier
  let path: String
}

extension SharedReaderKey {
  /// A `Codable` value kept as JSON in the file at `url`:
  /// `@Shared(.fileStorage(dataDirectory.appending(path: "users.json"))) var users: [User] = []`.
  ///
  /// Changes are saved shortly after they are made (debounced), atomically: after a crash
  /// the file holds an old or the new value, never a mix. Changes made to the file by others
  /// are loaded. Where the files live comes from ``DependencyValues/defaultFileStorage``:
  /// the disk, or memory in tests. Keys are process-wide, like the file.
  public static func fileStorage<Value>(_ url: URL) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, storage: DependencyValues.current.defaultFileStorage)
  }
}
