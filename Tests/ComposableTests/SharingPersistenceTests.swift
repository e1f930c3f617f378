import Composable
import Foundation
import Synchronization
import Testing

extension SharedReaderKey where Self == AppStorageKey<Int> {
  fileprivate static var launchCount: Self { .appStorage("launchCount") }
}

extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var answer: Self { Self[.inMemory("answer"), default: 42] }
}

/// A fresh directory under the temporary directory.
private func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("SharingTests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Waits until `condition` holds (up to 3 s).
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<600 {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

/// A custom key: values in a dictionary that can also change behind the key's back.
private final class Remote: Sendable {
  private let state = Mutex<(values: [String: String], subscribers: [@Sendable (String) -> Void])>(([:], []))

  func value(_ name: String) -> String? { state.withLock { $0.values[name] } }

  func set(_ value: String, _ name: String) { state.withLock { $0.values[name] = value } }

  func subscribe(_ didChange: @escaping @Sendable (String) -> Void) {
    state.withLock { $0.subscribers.append(didChange) }
  }

  /// A change made elsewhere: stored, and told to the subscribers.
  func push(_ value: String, _ name: String) {
    let subscribers = state.withLock { state in
      state.values[name] = value
      return state.subscribers
    }
    for subscriber in subscribers { subscriber(value) }
  }
}

private struct RemoteKey: SharedKey {
  let name: String
  let remote: Remote

  var id: String { name }
  func load() -> String? { remote.value(name) }
  func save(_ value: String) { remote.set(value, name) }
  func subscribe(_ didChange: @escaping @Sendable (String) -> Void) -> SharedSubscription {
    remote.subscribe(didChange)
    return .empty
  }
}

@Suite struct SharingPersistenceTests {
  @Test func appStorageSavesToItsDirectoryAndLoadsFromIt() throws {
    let directory = try temporaryDirectory()
    let storage = AppStorage(directory: directory, saveDelay: .zero)
    withDependencies { $0.defaultAppStorage = storage } operation: {
      @Shared(.appStorage("count")) var count = 0
      $count.withLock { $0 = 3 }
      @Shared(.appStorage("name")) var name = ""
      $name.withLock { $0 = "Blob" }
    }
    storage.flush()
    let file = try String(contentsOf: directory.appendingPathComponent("AppStorage.json"), encoding: .utf8)
    #expect(file == "{\n  \"count\": 3,\n  \"name\": \"Blob\"\n}\n")
    withDependencies { $0.defaultAppStorage = AppStorage(directory: directory) } operation: {
      @Shared(.appStorage("count")) var count = 0
      @SharedReader(.appStorage("name")) var name = ""
      #expect(count == 3)
      #expect(name == "Blob")
    }
  }

  @Test func testContextKeepsAppAndFileStorageInMemory() throws {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("users.json")
    withDependencies { $0.context = .test } operation: {
      let users = Shared(wrappedValue: [String](), .fileStorage(url))
      users.withLock { $0.append("Blob") }
      DependencyValues.current.defaultFileStorage.flush()
      #expect(Shared(wrappedValue: [], .fileStorage(url)).wrappedValue == ["Blob"])
      let flag = Shared(wrappedValue: false, .appStorage("testContextFlag-\(url.path)"))
      flag.withLock { $0 = true }
      #expect(Shared(wrappedValue: false, .appStorage("testContextFlag-\(url.path)")).wrappedValue)
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func typeSafeKeysCarryTheirTypeAndDefault() {
    withDependencies {
      $0.defaultAppStorage = .inMemory()
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      @Shared(.launchCount) var launches = 0
      $launches.withLock { $0 += 1 }
      @Shared(.answer) var answer
      #expect(answer == 42)
      $answer.withLock { $0 += 1 }
      @SharedReader(.answer) var sameAnswer
      #expect(sameAnswer == 43)
      #expect(Shared(wrappedValue: 0, .launchCount).wrappedValue == 1)
    }
  }

  @Test func customKeysLoadSaveAndFollowOutsideChanges() {
    let remote = Remote()
    remote.set("hello", "greeting")
    let greeting = Shared(wrappedValue: "", RemoteKey(name: "greeting", remote: remote))
    #expect(greeting.wrappedValue == "hello")
    greeting.withLock { $0 = "hi" }
    #expect(remote.value("greeting") == "hi")
    remote.push("hey", "greeting")
    #expect(greeting.wrappedValue == "hey")
  }

  @Test func fileStorageSavesDebouncedAsJSON() async throws {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("numbers.json")
    let storage = FileStorage.fileSystem(saveDelay: .milliseconds(50))
    let numbers = withDependencies { $0.defaultFileStorage = storage } operation: {
      Shared(wrappedValue: [Int](), .fileStorage(url))
    }
    for number in 1...100 { numbers.withLock { $0.append(number) } }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(await eventually { FileManager.default.fileExists(atPath: url.path) })
    let saved = try JSONDecoder().decode([Int].self, from: Data(contentsOf: url))
    #expect(saved == Array(1...100))
  }

  @Test func fileStorageReloadsAFileChangedOnDisk() async throws {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("settings.json")
    try Data(#"{"theme":"light"}"#.utf8).write(to: url)
    struct Settings: Codable, Equatable, Sendable { var theme: String }
    struct State: Equatable { @Shared var settings: Settings }
    let storage = FileStorage.fileSystem(saveDelay: .milliseconds(10), pollInterval: .milliseconds(20))
    let store = Store(initialState: State(settings: Shared(wrappedValue: Settings(theme: "none"), .fileStorage(url)))) {
      EmptyReducer<State, Never>()
    } withDependencies: {
      $0.defaultFileStorage = storage
    }
    #expect(store.settings.theme == "light")
    try Data(#"{"theme":"dark"}"#.utf8).write(to: url, options: .atomic)
    #expect(await eventually { store.settings.theme == "dark" })
    #expect(store.snapshot.version == 1)
  }

  @Test func fileWritesAreNeverSeenHalfDone() throws {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("big.json")
    let storage = FileStorage.fileSystem(saveDelay: .zero)
    let small = [Int](repeating: 1, count: 10)
    let large = [Int](repeating: 2, count: 200_000)
    let values = withDependencies { $0.defaultFileStorage = storage } operation: {
      Shared(wrappedValue: small, .fileStorage(url))
    }
    values.withLock { $0 = small }
    storage.flush()
    let finished = Recorder<Bool>()
    let writing = Thread {
      for round in 0..<60 {
        values.withLock { $0 = round.isMultiple(of: 2) ? large : small }
        storage.flush()
      }
      finished.record(true)
    }
    writing.start()
    var reads = 0
    var torn = 0
    while finished.values.isEmpty {
      guard let data = try? Data(contentsOf: url) else { continue }
      reads += 1
      let decoded = try? JSONDecoder().decode([Int].self, from: data)
      if decoded != small && decoded != large { torn += 1 }
    }
    #expect(reads > 10)
    #expect(torn == 0)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }
}
