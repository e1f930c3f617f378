import Synchronization
import Testing

@_spi(Hosting) @testable import Composable

/// A root store keeps its state in a buffer its snapshots share: a snapshot must still show
/// its own version's state after the store changed on, and a refused change must leave the
/// store on the snapshot it had.
@Suite struct StoreSnapshotSharingTests {
  private struct Counting: Reducer {
    struct State: Equatable, Sendable {
      var count = 0
      var names: [String] = []
    }

    func reduce(into state: inout State, action: Int) -> Effect<Int> {
      state.count += action
      state.names.append("n\(state.count)")
      return action > 1 ? .send(action - 1) : .none
    }
  }

  @Test func eachSnapshotKeepsItsVersionsStateAsTheStoreChangesOn() {
    let seen = Mutex<[StoreSnapshot<Counting.State>]>([])
    let store = Store(initialState: Counting.State()) { Counting() } acceptingChange: { _ in true }
    let observation = store.observe { snapshot in seen.withLock { $0.append(snapshot) } }
    let first = store.snapshot
    store.send(1)
    store.send(3)
    store.send(2)
    let snapshots = seen.withLock { $0 }
    #expect(snapshots.map(\.state.count) == [0, 1, 7, 10])
    #expect(snapshots.map(\.state.names.count) == [0, 1, 4, 6])
    #expect(first.state == Counting.State())
    #expect(store.withState { $0 } == snapshots.last?.state)
    observation.cancel()
  }

  @Test func aRefusedChangeLeavesTheStoreOnItsLastVersion() {
    let store = Store(initialState: Counting.State()) { Counting() } acceptingChange: { $0.state.count <= 3 }
    store.send(2)
    let accepted = store.snapshot
    #expect(store.send(5).isRefused)
    #expect(store.withState { $0 } == accepted.state)
    #expect(accepted.state.count == 3)
    store.send(0)
    #expect(store.snapshot.state.names == ["n2", "n3", "n3"])
  }
}
