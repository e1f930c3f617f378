import Observation
import Synchronization

/// A store is `Observable`: reading its state (`store.count`, `store.withState`) inside
/// `withObservationTracking` registers the read, and the store's next version calls the
/// `onChange`, as in TCA.
extension Store: Observable {}

/// The observation of one store: a registrar, and the store's own observation of its
/// versions, which calls it. Made at the store's first tracked read, so that stores nobody
/// observes pay nothing.
final class StoreObservationTracking: Sendable {
  let registrar = ObservationRegistrar()
  private let versions: StoreObservation

  init<State, Action>(following store: Store<State, Action>) {
    let registrar = registrar
    let isFirst = Mutex(true)
    versions = store.core.observe { [weak store] _ in
      // The first call is the current version, already read.
      let wasFirst = isFirst.withLock { first in
        defer { first = false }
        return first
      }
      guard !wasFirst, let store else { return }
      registrar.withMutation(of: store, keyPath: \.snapshot) {}
    }
  }
}
