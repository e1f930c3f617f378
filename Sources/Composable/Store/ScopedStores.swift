import Synchronization

/// The child stores a store has scoped with key paths, so that scoping again with the same
/// paths gives the same store while it lives.
///
/// Children are held weakly: a child holds its parent, and a server's sessions must not keep
/// stores nobody reads. Entries of released children are dropped when a new child is made.
struct ScopedStores: ~Copyable, Sendable {
  /// A child store's identity: the key path of its state and the case key path of its actions.
  struct ID: Hashable, @unchecked Sendable {
    let state: AnyKeyPath
    let action: AnyKeyPath
  }

  private let entries = Mutex<[ID: WeakStore]>([:])

  /// The living child scoped with `id`, or the one `make` makes, remembered.
  func store<Child: AnyObject>(for id: ID, orMake make: () -> Child) -> Child {
    entries.withLock { entries in
      if let cached = entries[id]?.store as? Child { return cached }
      entries = entries.filter { $0.value.store != nil }
      let child = make()
      entries[id] = WeakStore(store: child)
      return child
    }
  }
}

/// A child store, held weakly.
struct WeakStore: @unchecked Sendable {
  weak var store: AnyObject?
}
