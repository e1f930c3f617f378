import Synchronization

/// Which process forwards each session's requests here: after ``handoverStreak`` forwarded
/// requests in a row from one process, a load balancer evidently routes the session there,
/// so the session should move to it and later actions skip the hop.
final class ForwardStreaks: Sendable {
  /// Forwarded requests in a row from one process after which a session is handed to it.
  static let handoverStreak = 3

  /// Per session, the process whose forwarded requests came last, and how many in a row.
  private let streaks = Mutex<[SessionID: (process: String, count: Int)]>([:])

  /// Records that this process served a request for `id`, forwarded by `process` (`nil`:
  /// it came straight here). Returns that process when the last ``handoverStreak`` requests
  /// all came from it.
  func noteServed(_ id: SessionID, forwardedBy process: String?) -> String? {
    streaks.withLock { streaks in
      guard let process else {
        streaks[id] = nil
        return nil
      }
      let count = streaks[id]?.process == process ? streaks[id]!.count + 1 : 1
      guard count < Self.handoverStreak else {
        streaks[id] = nil
        return process
      }
      streaks[id] = (process, count)
      return nil
    }
  }

  /// Forgets a session that left this process.
  func forget(_ id: SessionID) {
    streaks.withLock { _ = $0.removeValue(forKey: id) }
  }
}
