import Synchronization

/// Counters and a latency histogram of a session host, for `/metrics`.
final class HostMetrics: Sendable {
  let sessionsCreated = Atomic<Int>(0)
  let sessionsEnded = Atomic<Int>(0)
  /// Sessions saved and taken out of memory while idle.
  let sessionsRested = Atomic<Int>(0)
  /// Sessions brought back into memory from storage on a request.
  let sessionsBroughtBack = Atomic<Int>(0)
  let actionsApplied = Atomic<Int>(0)
  let actionRequestsRejected = Atomic<Int>(0)
  /// Actions refused because the state they would leave passes the size limit.
  let changesRefused = Atomic<Int>(0)
  /// Requests sent on to the process that owns their session (in a cluster).
  let requestsForwarded = Atomic<Int>(0)
  /// Seconds from receiving an action request to answering it.
  let actionLatency = Histogram(bounds: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5])
}

/// A Prometheus histogram: cumulative counts of observations at or under each bound.
final class Histogram: Sendable {
  let bounds: [Double]
  private let state: Mutex<(counts: [Int], sum: Double, count: Int)>

  init(bounds: [Double]) {
    self.bounds = bounds
    self.state = Mutex((Array(repeating: 0, count: bounds.count), 0, 0))
  }

  func observe(_ value: Double) {
    state.withLock { state in
      if let index = bounds.firstIndex(where: { value <= $0 }) { state.counts[index] += 1 }
      state.sum += value
      state.count += 1
    }
  }

  /// The histogram in the Prometheus text format, under `name`.
  func exposition(name: String, help: String) -> String {
    let (counts, sum, count) = state.withLock { $0 }
    var lines = ["# HELP \(name) \(help)", "# TYPE \(name) histogram"]
    var cumulative = 0
    for (bound, bucketCount) in zip(bounds, counts) {
      cumulative += bucketCount
      lines.append("\(name)_bucket{le=\"\(bound)\"} \(cumulative)")
    }
    lines.append("\(name)_bucket{le=\"+Inf\"} \(count)")
    lines.append("\(name)_sum \(sum)")
    lines.append("\(name)_count \(count)")
    return lines.joined(separator: "\n")
  }
}
