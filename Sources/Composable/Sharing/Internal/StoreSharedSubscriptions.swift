/// The shared values a root store's state holds, with the generation of each that the
/// store last published. Used by one store under its lock.
final class StoreSharedSubscriptions {
  private struct Entry {
    let box: AnySharedBox
    let subscription: SharedSubscription
    var seenGeneration: UInt64
    /// The root value at `seenGeneration` (or a later one), for snapshots.
    var seenValue: any Sendable
  }

  /// Ordered by the boxes' identities. A state holds few shared values, so a sorted list.
  private var entries: [Entry] = [] {
    didSet { lastSnapshot = nil }
  }
  /// ``snapshot()`` since `entries` last changed: reading the state again costs no copy.
  private var lastSnapshot: SharedSnapshot?
  /// ``SharedBoxCount/created`` when the state was last scanned.
  private var scannedAtCount = -1

  /// Whether the state may hold other shared values than at the last scan: a shared value
  /// was made since (a new one, or one for a key), or the state changed while it held some.
  /// (An equal state holds the same shared values, short of one swapped for another
  /// existing one with an equal value.)
  func needsScan(stateChanged: Bool) -> Bool {
    SharedHandles.made.load(ordering: .relaxed) != scannedAtCount || (stateChanged && !entries.isEmpty)
  }

  /// Subscribes to the shared values in `state` not yet followed, with `onChange`, and
  /// drops those the state no longer holds.
  func update<State>(
    from state: State,
    onChange: @escaping @Sendable (ObjectIdentifier, SharedChange) -> Void
  ) {
    scannedAtCount = SharedHandles.made.load(ordering: .relaxed)
    let boxes = SharedScan.boxes(in: state)
    guard !boxes.isEmpty || !entries.isEmpty else { return }
    var kept: [Entry] = []
    kept.reserveCapacity(boxes.count)
    for box in boxes.sorted(by: { ObjectIdentifier($0) < ObjectIdentifier($1) }) {
      if let entry = entries.first(where: { $0.box === box }) {
        kept.append(entry)
      } else {
        let id = ObjectIdentifier(box)
        let generation = box.generation.load(ordering: .sequentiallyConsistent)
        kept.append(
          Entry(
            box: box, subscription: box.subscribe { onChange(id, $0) }, seenGeneration: generation,
            seenValue: box.anyValue))
      }
    }
    entries = kept
  }

  /// Records that the store publishes `change` of the box `id`; `false` when the store
  /// does not follow it or already published that generation.
  func advance(_ id: ObjectIdentifier, to change: SharedChange) -> Bool {
    guard let index = entries.firstIndex(where: { ObjectIdentifier($0.box) == id }),
      change.generation > entries[index].seenGeneration
    else { return false }
    entries[index].seenGeneration = change.generation
    entries[index].seenValue = change.value
    return true
  }

  /// The followed values as this store last published them, in a stable order.
  func snapshot() -> SharedSnapshot {
    guard !entries.isEmpty else { return .empty }
    if let lastSnapshot { return lastSnapshot }
    let snapshot = SharedSnapshot(
      entries: entries.map { SharedSnapshot.Entry(box: $0.box, generation: $0.seenGeneration, value: $0.seenValue) })
    lastSnapshot = snapshot
    return snapshot
  }

  /// Stops following every shared value.
  func removeAll() { entries.removeAll() }

  /// Records the current generation of each followed box in `changed`; whether any advanced.
  func advance(_ changed: [AnySharedBox]) -> Bool {
    var advanced = false
    for box in changed {
      let generation = box.generation.load(ordering: .sequentiallyConsistent)
      if advance(ObjectIdentifier(box), to: SharedChange(generation: generation, value: box.anyValue)) { advanced = true }
    }
    return advanced
  }
}
