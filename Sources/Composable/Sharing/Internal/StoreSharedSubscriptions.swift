/// The shared values a root store's state holds, with the generation of each that the
/// store last published. Used by one store under its lock.
final class StoreSharedSubscriptions {
  private struct Entry {
    let box: AnySharedBox
    let subscription: SharedSubscription
    var seenGeneration: UInt64
    /// The root value at `seenGeneration` (or a later one), for snapshots.
    var seenValue: any Sendable
    /// How many places of the state hold the box.
    var holders: Int
  }

  /// Ordered by the boxes' identities. A state holds few shared values, so a sorted list.
  private var entries: [Entry] = [] {
    didSet { lastSnapshot = nil }
  }
  /// ``snapshot()`` since `entries` last changed: reading the state again costs no copy.
  private var lastSnapshot: SharedSnapshot?
  /// `SharedHandles.made` when the state was last scanned whole.
  private var scannedAtCount = -1

  /// Whether a state that ``update(from:onChange:)`` cannot compare with the one before
  /// it may hold other shared values than at the last scan: a shared value was made since
  /// (a new one, or one for a key), or the state changed while it held some.
  /// (An equal state holds the same shared values, short of one swapped for another
  /// existing one with an equal value.)
  func needsScan(stateChanged: Bool) -> Bool {
    SharedHandles.made.load(ordering: .relaxed) != scannedAtCount || (stateChanged && !entries.isEmpty)
  }

  /// Follows exactly the shared values in `state`, with `onChange` for those not yet
  /// followed (made only when one is, so a look that finds nothing new allocates nothing).
  func update<State>(
    from state: State,
    onChange: @autoclosure () -> @Sendable (ObjectIdentifier, SharedChange) -> Void
  ) {
    scannedAtCount = SharedHandles.made.load(ordering: .relaxed)
    let tally = SharedScan.tally(of: state)
    guard !tally.counts.isEmpty || !entries.isEmpty else { return }
    var kept: [Entry] = []
    kept.reserveCapacity(tally.counts.count)
    for (id, found) in tally.counts.sorted(by: { $0.key < $1.key }) {
      if var entry = entries.first(where: { ObjectIdentifier($0.box) == id }) {
        entry.holders = found.count
        kept.append(entry)
      } else {
        kept.append(subscribe(found.box, holders: found.count, onChange: onChange()))
      }
    }
    entries = kept
  }

  /// Follows the shared values of the state at `state`, which was the one at `previous` when
  /// this last looked: only the parts whose bytes differ are searched (see
  /// ``SharedScan/tallyChanges(fromValueAt:to:into:)``).
  func update<State>(
    fromValueAt previous: UnsafePointer<State>, to state: UnsafePointer<State>,
    onChange: @autoclosure () -> @Sendable (ObjectIdentifier, SharedChange) -> Void
  ) {
    var tally = SharedScan.Tally()
    SharedScan.tallyChanges(fromValueAt: previous, to: state, into: &tally)
    for (id, change) in tally.counts where change.count != 0 {
      if let index = entries.firstIndex(where: { ObjectIdentifier($0.box) == id }) {
        entries[index].holders += change.count
        if entries[index].holders <= 0 { entries.remove(at: index) }
      } else if change.count > 0 {
        let index = entries.firstIndex { ObjectIdentifier($0.box) > id } ?? entries.endIndex
        entries.insert(subscribe(change.box, holders: change.count, onChange: onChange()), at: index)
      }
    }
  }

  private func subscribe(
    _ box: AnySharedBox, holders: Int, onChange: @escaping @Sendable (ObjectIdentifier, SharedChange) -> Void
  ) -> Entry {
    let id = ObjectIdentifier(box)
    let generation = box.generation.load(ordering: .sequentiallyConsistent)
    return Entry(
      box: box, subscription: box.subscribe { onChange(id, $0) }, seenGeneration: generation,
      seenValue: box.anyValue, holders: holders)
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
