import Synchronization

/// The ids a reducer cancels with `Task.cancel(id:)`, until its store applies them.
final class PendingCancellations: EffectCancelling {
  private let ids = Mutex<[EffectID]>([])
  /// Whether `ids` is empty, so that a store asks without locking after every action.
  private let isEmpty = Atomic(true)

  func cancelEffects(_ id: EffectID) {
    ids.withLock { ids in
      ids.append(id)
      isEmpty.store(false, ordering: .relaxed)
    }
  }

  /// The ids cancelled since the last call.
  func take() -> [EffectID] {
    guard !isEmpty.load(ordering: .relaxed) else { return [] }
    return ids.withLock { ids in
      isEmpty.store(true, ordering: .relaxed)
      defer { ids.removeAll() }
      return ids
    }
  }
}
