import Foundation

extension DependencyValues {
  /// Where `.appStorage` keys keep their values: `.storehost/shared` in the working
  /// directory when live; memory (``AppStorage/inMemory()``) in tests.
  public var defaultAppStorage: AppStorage {
    get { self[DefaultAppStorageKey.self] }
    set { self[DefaultAppStorageKey.self] = newValue }
  }

  /// Where `.fileStorage` keys keep their files: the disk when live; memory
  /// (``FileStorage/inMemory()``) in tests.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }

  /// Where `.inMemory` keys keep their values: one storage for the process, in tests too
  /// (give a test its own with `$0.defaultInMemoryStorage = InMemoryStorage()`).
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static let liveValue = AppStorage(
    directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent(".storehost/shared"))
  static let testValue = AppStorage.inMemory()
}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem()
  static let testValue = FileStorage.inMemory()
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage()
  static let testValue = liveValue
}
