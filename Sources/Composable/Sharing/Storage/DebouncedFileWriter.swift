import Dispatch
import Foundation
import Synchronization

/// Saves the latest data given to it into one file, at most once per `delay`, with
/// ``AtomicFile``: a burst of changes costs one write.
final class DebouncedFileWriter: Sendable {
  private let url: URL
  private let delay: Duration
  private let queue: DispatchQueue
  private let pending = Mutex<Pending>(Pending())

  private struct Pending {
    var data: Data?
    var onWrite: (@Sendable (Data) -> Void)?
    var isScheduled = false
  }

  init(url: URL, delay: Duration) {
    self.url = url
    self.delay = delay
    self.queue = DispatchQueue(label: "DebouncedFileWriter \(url.lastPathComponent)")
  }

  /// Schedules `data` to be written, replacing data not yet written; `onWrite` is called
  /// on the writer's queue once it is written.
  func write(_ data: Data, onWrite: (@Sendable (Data) -> Void)? = nil) {
    let schedule = pending.withLock { pending in
      pending.data = data
      pending.onWrite = onWrite
      defer { pending.isScheduled = true }
      return !pending.isScheduled
    }
    guard schedule else { return }
    queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [self] in writePending() }
  }

  /// Writes the pending data now, if any, and returns once it is on disk.
  func flush() {
    queue.sync { writePending() }
  }

  private func writePending() {
    let taken = pending.withLock { pending in
      defer { pending = Pending() }
      return pending
    }
    guard let data = taken.data else { return }
    do {
      try AtomicFile.write(data, to: url)
      taken.onWrite?(data)
    } catch {
      reportIssue("Could not save shared state to \(url.path): \(error)")
    }
  }
}
