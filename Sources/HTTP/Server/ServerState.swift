import Synchronization

/// State a running server shares with its loops and requests.
final class ServerState: Sendable {
  private let draining = Atomic<Bool>(false)
  /// Open connections across all loops.
  let connectionCount = Atomic<Int>(0)
  /// Open event streams across all loops.
  let eventStreamCount = Atomic<Int>(0)
  /// What each event loop counted: a loop adds to its own counters only, so answering a
  /// request writes no memory another loop's core also writes.
  let loopCounters: [LoopCounters]

  /// The state of a server with `loopCount` event loops.
  init(loopCount: Int) {
    loopCounters = (0..<max(1, loopCount)).map { _ in LoopCounters() }
  }

  var isDraining: Bool { draining.load(ordering: .relaxed) }
  func startDraining() { draining.store(true, ordering: .relaxed) }

  var metrics: ServerMetrics {
    ServerMetrics(
      openConnections: connectionCount.load(ordering: .relaxed),
      openEventStreams: eventStreamCount.load(ordering: .relaxed),
      responses: loopCounters.reduce(0) { $0 + $1.responses },
      bytesWritten: loopCounters.reduce(0) { $0 + $1.bytesWritten })
  }
}

/// The counters of one event loop: written by its thread alone (a plain load and store,
/// never a locked add), read by any. Padded so that two loops' counters never share a
/// cache line.
final class LoopCounters: Sendable {
  private let responseCount = Atomic<Int>(0)
  private let writtenByteCount = Atomic<Int>(0)
  private let padding = (0, 0, 0, 0, 0, 0, 0, 0)

  /// Responses written, error answers included.
  var responses: Int { responseCount.load(ordering: .relaxed) }
  /// Bytes the sockets accepted.
  var bytesWritten: Int { writtenByteCount.load(ordering: .relaxed) }

  /// Counts a response: only on the loop's own thread.
  func countResponse() {
    responseCount.store(responseCount.load(ordering: .relaxed) + 1, ordering: .relaxed)
  }

  /// Counts bytes a socket accepted: only on the loop's own thread.
  func count(bytesWritten count: Int) {
    writtenByteCount.store(writtenByteCount.load(ordering: .relaxed) + count, ordering: .relaxed)
  }
}
