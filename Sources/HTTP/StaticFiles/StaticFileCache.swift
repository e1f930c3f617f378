import Synchronization

/// The files ``StaticFiles`` keeps, by URL path, each checked on disk again once
/// ``StaticFiles/Options/revalidateAfter`` has passed since it was last.
final class StaticFileCache: Sendable {
  private struct Entry {
    var file: CachedFile
    var checkedAt: MonotonicInstant
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// The bytes the entries hold in memory.
    var memoryBytes = 0

    mutating func remove(_ path: String) {
      if let old = entries.removeValue(forKey: path) { memoryBytes -= old.file.memoryBytes }
    }
  }

  let options: StaticFiles.Options
  private let state = Mutex(State())

  init(options: StaticFiles.Options) {
    self.options = options
  }

  /// The file the URL path `path` names under `root`, from memory when it was checked
  /// recently or has not changed; `nil` for a 404.
  ///
  /// - Throws: 400 for a malformed percent escape.
  func file(at path: String, root: String) throws(HTTPError) -> CachedFile? {
    let now = MonotonicInstant.now
    if let entry = state.withLock({ $0.entries[path] }) {
      if now - entry.checkedAt < options.revalidateAfter { return entry.file }
      if entry.file.isCurrent {
        state.withLock { $0.entries[path]?.checkedAt = now }
        return entry.file
      }
    }
    let memoryLeft = options.maxMemoryBytes - state.withLock { $0.memoryBytes }
    let loaded = try CachedFile.load(
      path, root: root, options: options, inMemoryUpTo: min(options.maxFileBytesInMemory, memoryLeft))
    state.withLock { state in
      state.remove(path)
      guard let loaded else { return }
      if state.entries.count >= options.maxFiles, let victim = state.entries.keys.first { state.remove(victim) }
      state.entries[path] = Entry(file: loaded, checkedAt: now)
      state.memoryBytes += loaded.memoryBytes
    }
    return loaded
  }

  /// How many files are kept and the bytes they hold in memory.
  var usage: (files: Int, memoryBytes: Int) { state.withLock { ($0.entries.count, $0.memoryBytes) } }
}
