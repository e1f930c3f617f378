import Foundation
import Synchronization

/// Threads on which a clustered host sends clients' actions to their stores: there a
/// reducer may wait for the database (a ``Composable/AtomicSharedKey`` change of a value
/// every process shares is a compare-and-set round trip) without holding up an event loop,
/// whose other connections would wait with it.
final class ReducerThreads: Sendable {
  private typealias Job = @Sendable () -> Void

  private let jobs = Mutex<[Job]>([])
  private let available = DispatchSemaphore(value: 0)

  /// Starts `count` threads, which live as long as the process.
  init(count: Int) {
    for index in 0..<count {
      let thread = Thread { [self] in serve() }
      thread.name = "StoreHost reducer \(index)"
      thread.start()
    }
  }

  /// Runs `body` on one of the threads and returns its result.
  func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
      jobs.withLock { $0.append { continuation.resume(with: Result { try body() }) } }
      available.signal()
    }
  }

  private func serve() {
    while true {
      available.wait()
      guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
      job()
    }
  }
}
