/// The shared values a store's state held at one version, with their values then.
///
/// A state refers to its ``Shared`` values, so encoding an older state later would show
/// today's values. A ``StoreSnapshot`` carries this record instead, and encoding it
/// (`StoreSnapshot/encodedState()`) shows each shared value as it was.
public struct SharedSnapshot: Sendable {
  struct Entry: Sendable {
    let box: AnySharedBox
    let generation: UInt64
    let value: any Sendable
  }

  let entries: [Entry]

  /// No shared values.
  public static let empty = SharedSnapshot(entries: [])

  init(entries: [Entry]) { self.entries = entries }

  /// The root value of `box` at this version, if the state held it.
  func value(of box: AnySharedBox) -> (any Sendable)? {
    entries.first { $0.box === box }?.value
  }

  /// Whether the values that differ from `earlier` are all keyed (`.inMemory`,
  /// `.appStorage`, ...), the same values in both: a state that differs from `earlier` only
  /// so is stored the same, since a restored state takes its keyed values from their keys.
  package func changedOnlyKeyedValues(since earlier: SharedSnapshot) -> Bool {
    entries.count == earlier.entries.count
      && zip(entries, earlier.entries).allSatisfy { now, then in
        now.box === then.box && (now.generation == then.generation || now.box.isKeyed)
      }
  }

  /// The boxes recorded at another generation than in `earlier`, or recorded by one only.
  func boxesChanged(since earlier: SharedSnapshot) -> Set<ObjectIdentifier> {
    var changed: Set<ObjectIdentifier> = []
    for entry in entries where !earlier.entries.contains(where: { $0.box === entry.box && $0.generation == entry.generation }) {
      changed.insert(ObjectIdentifier(entry.box))
    }
    for entry in earlier.entries where !entries.contains(where: { $0.box === entry.box }) {
      changed.insert(ObjectIdentifier(entry.box))
    }
    return changed
  }
}

extension SharedReference {
  /// This reference's value in `context` when that is a ``SharedSnapshot`` holding its box.
  func value(in context: Any?) -> Value? {
    guard let snapshot = context as? SharedSnapshot, let root = snapshot.value(of: box) else { return nil }
    return read(fromRoot: root)
  }
}
