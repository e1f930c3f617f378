import Foundation

extension DependencyValues {
  /// Where `.appStorage` keys keep their values: `.storehost/shared` in the working
  /// directory when live; memory (``AppStorage/inMemory()``) in tests, apart for each test.
  public var defaultAppStorage: AppStorage {
    get { self[DefaultAppStorageKey.self] }
    set { self[DefaultAppStorageKey.self] = newValue }
  }

  /// Where `.fileStorage` keys keep their files: the disk when live; memory
  /// (``FileStorage/inMemory()``) in tests, apart for each test.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }

  /// Where `.inMemory` keys keep their values: one storage for the process; in tests, one
  /// for each test.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static let liveValue = AppStorage(
    directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent(".storehost/shared"))
  static var testValue: AppStorage { TestScopedValues.value(for: Self.self) { .inMemory() } }
}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem()
  static var testValue: FileStorage { TestScopedValues.value(for: Self.self) { .inMemory() } }
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage()
  static var testValue: InMemoryStorage { TestScopedValues.value(for: Self.self) { InMemoryStorage() } }
}
