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
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws -> T
) async rethrows -> T {
  let id = EffectID(id)
  if cancelInFlight { TaskCancellations.shared.cancel(id) }
  let task = Task { try await operation() }
  let token = TaskCancellations.shared.insert(UncheckedSendable(task.cancel), for: id)
  defer { TaskCancellations.shared.remove(token, for: id) }
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
  /// Cancels the work running under `id` (``withTaskCancellation(id:cancelInFlight:operation:)``,
  /// and the effects an effect's ``Effect/actions`` runs with `cancellable(id:)`).
  public static func cancel(id: some Hashable & Sendable) {
    TaskCancellations.shared.cancel(EffectID(id))
  }
}

/// Work cancellable by id outside a store's own effects, for the whole process.
final class TaskCancellations: Sendable {
  static let shared = TaskCancellations()
  private let entries = Mutex<[EffectID: [Int: UncheckedSendable<() -> Void>]]>([:])
  private let nextToken = Atomic<Int>(0)

  func insert(_ cancel: UncheckedSendable<() -> Void>, for id: EffectID) -> Int {
    let token = nextToken.add(1, ordering: .relaxed).newValue
    entries.withLock { $0[id, default: [:]][token] = cancel }
    return token
  }

  func remove(_ token: Int, for id: EffectID) {
    entries.withLock { entries in
      entries[id]?[token] = nil
      if entries[id]?.isEmpty == true { entries[id] = nil }
    }
  }

  func cancel(_ id: EffectID) {
    let cancels = entries.withLock { $0.removeValue(forKey: id) } ?? [:]
    for cancel in cancels.values { cancel.value() }
  }
}
