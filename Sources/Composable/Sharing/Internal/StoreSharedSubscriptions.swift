/// The shared values a root store's state holds, with the generation of each that the
/// store last published. Used by one store under its lock.
final class StoreSharedSubscriptions {
  private struct Entry {
    let box: AnySharedBox
    let subscription: SharedSubscription
    var seenGeneration: UInt64
  }

  private var entries: [ObjectIdentifier: Entry] = [:]
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
  func update(
    from state: Any,
    onChange: @escaping @Sendable (ObjectIdentifier, UInt64) -> Void
  ) {
    scannedAtCount = SharedHandles.made.load(ordering: .relaxed)
    let boxes = SharedScan.boxes(in: state)
    guard !boxes.isEmpty || !entries.isEmpty else { return }
    var kept: [ObjectIdentifier: Entry] = [:]
    for box in boxes {
      let id = ObjectIdentifier(box)
      kept[id] =
        entries[id]
        ?? Entry(
          box: box, subscription: box.subscribe { onChange(id, $0) },
          seenGeneration: box.generation.load(ordering: .sequentiallyConsistent))
    }
    entries = kept
  }

  /// Records that the store publishes generation `generation` of the box `id`; `false`
  /// when the store does not follow it or already published that generation.
  func advance(_ id: ObjectIdentifier, to generation: UInt64) -> Bool {
    guard let seen = entries[id]?.seenGeneration, generation > seen else { return false }
    entries[id]?.seenGeneration = generation
    return true
  }

  /// The followed values as they are now, in a stable order.
  func snapshot() -> SharedSnapshot {
    guard !entries.isEmpty else { return .empty }
    return SharedSnapshot(
      entries: entries.sorted { $0.key < $1.key }.map { id, entry in
        let generation = entry.box.generation.load(ordering: .sequentiallyConsistent)
        return SharedSnapshot.Entry(box: entry.box, generation: generation, value: entry.box.anyValue)
      })
  }

  /// Stops following every shared value.
  func removeAll() { entries.removeAll() }

  /// Records the current generation of each followed box in `changed`; whether any advanced.
  func advance(_ changed: [AnySharedBox]) -> Bool {
    var advanced = false
    for box in changed where advance(ObjectIdentifier(box), to: box.generation.load(ordering: .sequentiallyConsistent)) {
      advanced = true
    }
    return advanced
  }
}
