import Dispatch
import Foundation
import Synchronization

/// A file on disk: saves through a ``DebouncedFileWriter``, and polls the file for changes
/// made by others while someone is subscribed.
final class WatchedFile: StoredFile {
  private struct Signature: Equatable {
    var inode: UInt64
    var size: Int64
    var modified: timespec

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.inode == rhs.inode && lhs.size == rhs.size
        && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }
  }

  private struct State {
    /// The content this process last read, saved or wrote: a poll finding either changes
    /// nothing (the file may still hold the written one while a newer save is pending).
    var known: Data?
    var written: Data?
    var signature: Signature?
    var subscribers: [UInt64: @Sendable (Data) -> Void] = [:]
    var nextID: UInt64 = 0
    var timer: (any DispatchSourceTimer)?
  }

  private let url: URL
  private let pollInterval: Duration
  private let state = Mutex(State())
  private let queue: DispatchQueue
  private let writer: DebouncedFileWriter

  init(url: URL, saveDelay: Duration, pollInterval: Duration) {
    self.url = url
    self.pollInterval = pollInterval
    self.queue = DispatchQueue(label: "WatchedFile \(url.lastPathComponent)")
    self.writer = DebouncedFileWriter(url: url, delay: saveDelay)
  }

  func load() -> Data? {
    let signature = Self.signature(of: url)
    let data = try? Data(contentsOf: url)
    state.withLock { state in
      state.known = data
      state.signature = signature
    }
    return data
  }

  func save(_ data: Data) {
    state.withLock { $0.known = data }
    writer.write(data) { [weak self] data in
      self?.state.withLock { $0.written = data }
    }
  }

  func flush() { writer.flush() }

  func subscribe(_ didChange: @escaping @Sendable (Data) -> Void) -> SharedSubscription {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      state.subscribers[state.nextID] = didChange
      if state.timer == nil { state.timer = startPolling() }
      return state.nextID
    }
    return SharedSubscription { [weak self] in
      self?.state.withLock { state in
        state.subscribers[id] = nil
        if state.subscribers.isEmpty {
          state.timer?.cancel()
          state.timer = nil
        }
      }
    }
  }

  private func startPolling() -> any DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = pollInterval.dispatchInterval
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in self?.poll() }
    timer.resume()
    return timer
  }

  /// Loads the file when its inode, size or modification time changed, and tells the
  /// subscribers when its content differs from what this process knows.
  private func poll() {
    let signature = Self.signature(of: url)
    guard signature != state.withLock({ $0.signature }) else { return }
    let data = signature == nil ? nil : try? Data(contentsOf: url)
    let subscribers = state.withLock { state -> [@Sendable (Data) -> Void] in
      state.signature = signature
      guard let data, data != state.known, data != state.written else { return [] }
      state.known = data
      return Array(state.subscribers.values)
    }
    guard let data else { return }
    for subscriber in subscribers { subscriber(data) }
  }

  private static func signature(of url: URL) -> Signature? {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return nil }
    return Signature(inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
  }
}
