import Foundation
import Synchronization

/// Where `SharedReaderKey/fileStorage(_:decoder:encoder:)` keys keep their files: the file
/// system (``fileSystem(saveDelay:pollInterval:)``) or, in tests, memory (``inMemory()``).
///
/// Set it with the ``DependencyValues/defaultFileStorage`` dependency.
public final class FileStorage: Sendable {
  private enum Backend: Sendable {
    case fileSystem(saveDelay: Duration, pollInterval: Duration)
    case inMemory
  }

  private let backend: Backend
  private let files = Mutex<[String: StoredFile]>([:])

  private init(backend: Backend) { self.backend = backend }

  /// Files on disk. Saves are debounced: the latest value is written `saveDelay` after a
  /// change, atomically (temporary file, fsync, rename). Changes made to a file by others
  /// are noticed within `pollInterval` and loaded.
  public static func fileSystem(
    saveDelay: Duration = .milliseconds(100), pollInterval: Duration = .milliseconds(500)
  ) -> FileStorage {
    FileStorage(backend: .fileSystem(saveDelay: saveDelay, pollInterval: pollInterval))
  }

  /// Files kept in memory only: what tests use by default.
  public static func inMemory() -> FileStorage { FileStorage(backend: .inMemory) }

  /// Writes every pending save now, for example before the process exits.
  public func flush() {
    for file in files.withLock({ Array($0.values) }) { file.flush() }
  }

  func load(_ url: URL) -> Data? { file(url).load() }

  func save(_ data: Data, to url: URL) { file(url).save(data) }

  func subscribe(_ url: URL, _ didChange: @escaping @Sendable (Data) -> Void) -> SharedSubscription {
    file(url).subscribe(didChange)
  }

  private func file(_ url: URL) -> StoredFile {
    files.withLock { files in
      let path = url.standardizedFileURL.path
      if let file = files[path] { return file }
      let file: StoredFile
      switch backend {
      case let .fileSystem(saveDelay, pollInterval):
        file = WatchedFile(url: url.standardizedFileURL, saveDelay: saveDelay, pollInterval: pollInterval)
      case .inMemory:
        file = MemoryFile()
      }
      files[path] = file
      return file
    }
  }
}

/// One file of a ``FileStorage``.
protocol StoredFile: Sendable {
  func load() -> Data?
  func save(_ data: Data)
  func subscribe(_ didChange: @escaping @Sendable (Data) -> Void) -> SharedSubscription
  func flush()
}

/// A file that lives in memory and never changes by itself.
final class MemoryFile: StoredFile {
  private let data = Mutex<Data?>(nil)

  func load() -> Data? { data.withLock { $0 } }
  func save(_ data: Data) { self.data.withLock { $0 = data } }
  func subscribe(_ didChange: @escaping @Sendable (Data) -> Void) -> SharedSubscription { .empty }
  func flush() {}
}
