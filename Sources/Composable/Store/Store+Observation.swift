import Observation
import Synchronization

/// A store is `Observable`: reading its state (`store.count`, `store.withState`) inside
/// `withObservationTracking` registers the read, and the store's next version calls the
/// `onChange`, as in TCA.
extension Store: Observable {}

/// The observation of one store: a registrar, and the store's own observation of its
/// versions, made the first time its state is read for observation, so that stores nobody
/// observes pay nothing.
final class StoreObservationTracking: Sendable {
  let registrar = ObservationRegistrar()
  private let versions = Mutex<StoreObservation?>(nil)

  /// Registers a read of `store`'s state, and starts following its versions if not yet.
  func access<State, Action>(_ store: Store<State, Action>) {
    registrar.access(store, keyPath: \.snapshot)
    versions.withLock { versions in
      guard versions == nil else { return }
      let isFirst = Mutex(true)
      versions = store.core.observe { [weak store, registrar] _ in
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
}
