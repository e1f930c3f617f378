import Synchronization

/// Runs `operation` so that it can be cancelled by id: by `Task.cancel(id:)`, by a
/// `.cancel(id:)` effect, or by another call with the same id and `cancelInFlight`.
///
/// ```swift
/// return .run { send in
///   await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///     await send(.results(try await search(query)))
///   }
/// }
/// ```
///
/// Inside an effect, the id belongs to the effect's root store, like the ids of its
/// `cancellable(id:)` effects; elsewhere, to the process.
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws -> T
) async rethrows -> T {
  let scope = CancellationScope.current
  let id = scope.effectID(id)
  if cancelInFlight { scope.cancel(id) }
  let task = Task { try await operation() }
  // Registered under the feature's own id and those of the features presenting it, so
  // that their `.cancel(id:)` reaches it too.
  let ids = id.withEnclosingNamespaces
  let token = scope.tasks.insert(UncheckedSendable(task.cancel), for: ids)
  defer { scope.tasks.remove(token, for: ids) }
  do {
    return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
  } catch {
    try rethrowing(error)
  }
}

/// Rethrows an error that can only come from a throwing operation.
private func rethrowing(_ error: any Error, _ never: () throws -> Void = {}) rethrows -> Never {
  try never()
  fatalError("A non-throwing operation threw \(error)")
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the work running under `id`: inside an effect, the effects of its root store
  /// marked `cancellable(id:)` (those of the feature running it and of the features it
  /// presents) and the work they run with ``withTaskCancellation(id:cancelInFlight:operation:)``;
  /// elsewhere, the work run with it outside any store, and by an effect's ``Effect/actions``.
  public static func cancel(id: some Hashable & Sendable) {
    let scope = CancellationScope.current
    scope.cancel(scope.effectID(id))
  }
}

/// Work cancellable by id outside a store's own effect tasks, in one ``CancellationScope``.
final class TaskCancellations: Sendable {
  private let entries = Mutex<[EffectID: [Int: UncheckedSendable<() -> Void>]]>([:])
  private let nextToken = Atomic<Int>(0)

  /// Registers `cancel` under each of `ids`; the token removes it.
  func insert(_ cancel: UncheckedSendable<() -> Void>, for ids: [EffectID]) -> Int {
    let token = nextToken.add(1, ordering: .relaxed).newValue
    entries.withLock { entries in
      for id in ids { entries[id, default: [:]][token] = cancel }
    }
    return token
  }

  func remove(_ token: Int, for ids: [EffectID]) {
    entries.withLock { entries in
      for id in ids {
        entries[id]?[token] = nil
        if entries[id]?.isEmpty == true { entries[id] = nil }
      }
    }
  }

  func cancel(_ id: EffectID) {
    let cancels = entries.withLock { $0.removeValue(forKey: id) } ?? [:]
    for cancel in cancels.values { cancel.value() }
  }
}
