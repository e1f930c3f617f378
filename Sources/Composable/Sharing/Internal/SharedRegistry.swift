import Synchronization

/// The boxes of the keyed shared values alive in this process: keys with equal ids (and the
/// same value type) get the same box, so every holder sees the same value at once.
enum SharedRegistry {
  private struct Entry {
    weak var box: AnySharedBox?
  }

  /// Sendable: `key` wraps a key's `ID`, which is `Sendable`.
  private struct ID: Hashable, @unchecked Sendable {
    let key: AnyHashable
    let valueType: ObjectIdentifier
  }

  private static let entries = Mutex<[ID: Entry]>([:])

  /// The box of `key`: the live one, or a new one holding the stored value (or
  /// `defaultValue` when nothing is stored) that stores its changes as `storing` says.
  static func box<Key: SharedReaderKey>(
    for key: Key,
    default defaultValue: () throws -> Key.Value,
    storing: SharedBox<Key.Value>.Storing
  ) rethrows -> SharedBox<Key.Value> {
    let id = ID(key: AnyHashable(key.id), valueType: ObjectIdentifier(Key.Value.self))
    return try entries.withLock { entries in
      if let box = entries[id]?.box as? SharedBox<Key.Value> { return box }
      let box = SharedBox(value: try key.load() ?? defaultValue(), storing: storing, isKeyed: true)
      entries[id] = Entry(box: box)
      // An atomic key tells of values from several threads at once, in any order: the box
      // takes the key's latest value then, under its lock, so the newest always ends up there.
      let isAtomic = if case .update = storing { true } else { false }
      box.retain(
        key.subscribe { [weak box] value in
          if isAtomic { box?.replace { key.load() ?? value } } else { box?.replace(with: value) }
        })
      box.retain(SharedSubscription { removeEntry(id) })
      return box
    }
  }

  /// Forgets `id` once its box is gone.
  private static func removeEntry(_ id: ID) {
    entries.withLock { entries in
      if entries[id] != nil && entries[id]?.box == nil { entries[id] = nil }
    }
  }
}
