import Synchronization

/// State a running server shares with its loops and requests.
final class ServerState: Sendable {
  private let draining = Atomic<Bool>(false)
  /// Open connections across all loops.
  let connectionCount = Atomic<Int>(0)
  /// Open event streams across all loops.
  let eventStreamCount = Atomic<Int>(0)
  /// Responses written, error answers included.
  let responseCount = Atomic<Int>(0)
  /// Bytes the sockets accepted.
  let bytesWritten = Atomic<Int>(0)

  var isDraining: Bool { draining.load(ordering: .relaxed) }
  func startDraining() { draining.store(true, ordering: .relaxed) }

  var metrics: ServerMetrics {
    ServerMetrics(
      openConnections: connectionCount.load(ordering: .relaxed),
      openEventStreams: eventStreamCount.load(ordering: .relaxed),
      responses: responseCount.load(ordering: .relaxed),
      bytesWritten: bytesWritten.load(ordering: .relaxed))
  }
}
