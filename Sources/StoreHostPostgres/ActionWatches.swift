import StoreHost

/// Which sessions' actions `?log=1` streams watch, across processes: each watching process
/// announces its watch every ``renewal`` and its end once; a watch not renewed for
/// ``lifetime`` (its process died) lapses. A pure value, used under a lock.
struct ActionWatches {
  /// How often a process repeats the watches it holds.
  static let renewal: Duration = .seconds(5)
  /// How long a watch lasts without being repeated.
  static let lifetime: Duration = .seconds(15)

  private var watchers: [SessionID: [String: ContinuousClock.Instant]] = [:]

  /// Whether any process watches `id`.
  func isWatched(_ id: SessionID) -> Bool { watchers[id] != nil }

  /// Records that `process` watches `id` (or stopped).
  /// - Returns: Whether `id` went from watched to not, or back.
  mutating func update(_ id: SessionID, process: String, watching: Bool, now: ContinuousClock.Instant) -> Bool {
    let before = isWatched(id)
    if watching {
      watchers[id, default: [:]][process] = now + Self.lifetime
    } else {
      watchers[id]?[process] = nil
      if watchers[id]?.isEmpty == true { watchers[id] = nil }
    }
    return before != isWatched(id)
  }

  /// Forgets the watches not repeated in time.
  /// - Returns: The sessions no longer watched.
  mutating func expire(now: ContinuousClock.Instant) -> [SessionID] {
    var ended: [SessionID] = []
    for (id, processes) in watchers {
      let alive = processes.filter { $0.value > now }
      if alive.isEmpty {
        watchers[id] = nil
        ended.append(id)
      } else if alive.count != processes.count {
        watchers[id] = alive
      }
    }
    return ended
  }
}
