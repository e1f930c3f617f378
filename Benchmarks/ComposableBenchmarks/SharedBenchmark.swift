import ComposableArchitecture
import Synchronization

/// A feature whose state is a shared count; each action increments it.
struct SharedCountFeature: Reducer {
  struct State: Equatable {
    @Shared var count: Int
  }

  var body: some Reducer<State, Void> {
    Reduce { state, _ in
      state.$count.withLock { $0 += 1 }
      return .none
    }
  }
}

/// How many snapshots the stores' observers have received.
final class PublishCounter: Sendable {
  let count = Atomic<Int>(0)
}

/// Microseconds from a `withLock` change of one shared value held by `storeCount` root
/// stores to the moment the last of them has published its new state to its observer
/// (best of `rounds`).
func sharedFanOutMicroseconds(storeCount: Int, rounds: Int = 20) -> Double {
  let count = Shared(0)
  let published = PublishCounter()
  let stores = (0..<storeCount).map { _ in
    Store(initialState: SharedCountFeature.State(count: count)) { SharedCountFeature() }
  }
  let observations = stores.map { store in
    store.observe { _ in published.count.add(1, ordering: .relaxed) }
  }
  let clock = ContinuousClock()
  var best = Double.infinity
  withExtendedLifetime(observations) {
    for round in 1...rounds {
      let target = published.count.load(ordering: .relaxed) + storeCount
      let start = clock.now
      count.withLock { $0 = round }
      while published.count.load(ordering: .relaxed) < target {}
      best = min(best, (clock.now - start).nanoseconds / 1_000)
    }
  }
  precondition(stores.allSatisfy { $0.snapshot.version == rounds && $0.count == rounds })
  return best
}
