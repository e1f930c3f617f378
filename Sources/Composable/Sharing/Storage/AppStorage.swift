import Foundation
import Synchronization

/// A small key-value store for simple values (`Bool`, `Int`, `Double`, `String`, `Data`,
/// `URL`, small `Codable` values), kept in one JSON file in a directory: what
/// ``SharedReaderKey/appStorage(_:)`` keys use. Saves are debounced and atomic.
///
/// Set it with the ``DependencyValues/defaultAppStorage`` dependency. Use one instance per
/// directory.
public final class AppStorage: Sendable {
  /// The JSON of each value, by key.
  private let values: Mutex<[String: Data]>
  private let writer: DebouncedFileWriter?

  /// The values stored in `directory` (in `AppStorage.json`, created on the first save).
  public init(directory: URL, saveDelay: Duration = .milliseconds(100)) {
    let url = directory.appendingPathComponent("AppStorage.json")
    self.writer = DebouncedFileWriter(url: url, delay: saveDelay)
    self.values = Mutex(Self.read(url))
  }

  private init() {
    self.writer = nil
    self.values = Mutex([:])
  }

  /// A store in memory only: what tests use by default.
  public static func inMemory() -> AppStorage { AppStorage() }

  /// Writes a pending save now.
  public func flush() { writer?.flush() }

  func data(forKey key: String) -> Data? { values.withLock { $0[key] } }

  func set(_ data: Data, forKey key: String) {
    let file = values.withLock { values -> Data? in
      values[key] = data
      return writer == nil ? nil : Self.file(values)
    }
    if let file { writer?.write(file) }
  }

  /// The file's content: one JSON object, keys sorted.
  private static func file(_ values: [String: Data]) -> Data {
    var file = Data("{\n".utf8)
    for (index, key) in values.keys.sorted().enumerated() {
      let name = (try? JSONEncoder().encode(key)) ?? Data("\"\"".utf8)
      file += Data("  ".utf8) + name + Data(": ".utf8) + values[key]!
      file += Data((index == values.count - 1 ? "\n" : ",\n").utf8)
    }
    return file + Data("}\n".utf8)
  }

  private static func read(_ url: URL) -> [String: Data] {
    guard let data = try? Data(contentsOf: url),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return [:] }
    return object.compactMapValues { try? JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed) }
  }
}
