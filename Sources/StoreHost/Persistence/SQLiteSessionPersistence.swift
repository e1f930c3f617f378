import CSystemShim
import Foundation

/// Sessions in one SQLite file (WAL mode), written by one dedicated thread that owns the
/// connection.
///
/// Every write is one transaction holding complete snapshots, so version and state always
/// change together and a crash leaves the last committed versions. See ``Durability`` for
/// when ``save(_:)`` returns; ``close()`` flushes everything.
///
/// ```swift
/// let persistence = try await SQLiteSessionPersistence.open(path: ".storehost/sessions.sqlite", durability: .strict)
/// for snapshot in try await persistence.loadAll() { ... }
/// try await persistence.save(SessionSnapshot(id: id, version: 3, state: state.serialized(), createdAt: created, lastActiveAt: .now))
/// ```
public final class SQLiteSessionPersistence: SessionPersistence {
  /// How long a `fast` save may wait before it is written, by default.
  public static let defaultBatchDelay: Duration = .milliseconds(100)
  /// How long a write waits for another process's lock on the file, by default.
  public static let defaultBusyTimeout: Duration = .seconds(5)

  /// The promise ``save(_:)`` and ``delete(_:)`` keep.
  public let durability: Durability
  private let queue: WriteQueue
  private let reader: SessionReader

  private init(durability: Durability, queue: WriteQueue, reader: SessionReader) {
    self.durability = durability
    self.queue = queue
    self.reader = reader
  }

  /// Without a ``close()``, the writer still flushes what is queued, then closes the file.
  deinit {
    queue.enqueueClose(nil)
  }

  /// Opens (or creates) the database at `path` and starts its writer thread. In `fast`
  /// mode the writer runs at a lower scheduling priority, so that serving requests and
  /// event streams comes before background saves.
  ///
  /// - Parameters:
  ///   - path: The SQLite file; its directory must exist.
  ///   - durability: `fast` (default) or `strict`.
  ///   - batchDelay: In `fast` mode, the longest a save waits before its batch is written.
  ///   - busyTimeout: How long a write waits while another connection holds the write lock.
  public static func open(
    path: String,
    durability: Durability = .fast,
    batchDelay: Duration = defaultBatchDelay,
    busyTimeout: Duration = defaultBusyTimeout
  ) async throws -> SQLiteSessionPersistence {
    let queue = WriteQueue(batchDelay: batchDelay)
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let opened = WriteQueue.Waiter(continuation)
      let writer = Thread {
        // Fast mode writes in the background: event delivery and requests come first.
        if durability == .fast { _ = csystem_set_thread_niceness(10) }
        SessionWriter.run(queue: queue, retriesFailedSaves: durability == .fast, opened: opened) {
          try SessionTable(path: path, durability: durability, busyTimeout: busyTimeout)
        }
      }
      writer.name = "StoreHost session writer"
      writer.start()
    }
    let reader: SessionReader
    do {
      reader = try SessionReader(path: path, busyTimeout: busyTimeout)
    } catch {
      queue.enqueueClose(nil)
      throw error
    }
    return SQLiteSessionPersistence(durability: durability, queue: queue, reader: reader)
  }

  public func loadAll() async throws -> [SessionSnapshot] {
    try await withCheckedThrowingContinuation { queue.enqueueLoad($0) }
  }

  /// Reads the session on a connection beside the writer's: what is committed, at once, or
  /// once the session's queued change (a last save, a delete) is committed.
  public func load(_ id: SessionID) async throws -> SessionSnapshot? {
    if queue.holdsUncommittedChange(of: id) { try await flush() }
    return try await reader.load(id)
  }

  public func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  {
    try await reader.sessions(lastActiveIn: range, savedThroughStateVersion: stateVersion, limit: limit)
  }

  public func save(_ save: SessionSave) async throws {
    try await change(save.id, .save(save))
  }

  /// Queues `save` without waiting: `completion` runs once it is committed, within the
  /// batch delay (`fast`) or at once (`strict`, or a save someone awaits).
  public func save(_ save: SessionSave, completion: @escaping @Sendable ((any Error)?) -> Void) {
    queue.enqueue(
      save.id, .save(save), waiter: WriteQueue.Waiter(completion), urgent: durability == .strict || save.isAwaited)
  }

  /// Writes the reservations in one transaction, at once, and returns once it committed.
  public func reserve(_ reservations: [SessionReservation]) async throws {
    guard !reservations.isEmpty else { return }
    for reservation in reservations { queue.enqueue(reservation.id, .reserve(reservation), waiter: nil) }
    try await flush()
  }

  public func delete(_ id: SessionID) async throws {
    try await change(id, .delete)
  }

  /// Has the next transaction forget the answers given before `date`.
  public func forgetAnswers(answeredBefore date: Date) async throws {
    queue.enqueueForgetAnswers(before: date)
  }

  /// Saves carry history steps, stored in the `history` table.
  public var storesHistory: Bool { true }

  /// The session's stored history, read by the writer after what is queued is committed.
  public func history(of id: SessionID) async throws -> [HistoryRecord] {
    try await withCheckedThrowingContinuation { queue.enqueueHistoryLoad(id, $0) }
  }

  /// Deletes every session's history in the next transaction, and returns once it committed.
  public func deleteAllHistory() async throws {
    try await withCheckedThrowingContinuation { queue.enqueueDeleteAllHistory(WriteQueue.Waiter($0)) }
  }

  /// The session `id` stored in the SQLite file at `path`, with its history, read without
  /// writing to the file (``SQLiteSavedSessions``): `nil` when it is not stored.
  public static func readSession(_ id: SessionID, path: String) throws -> SessionSnapshot? {
    try SQLiteSavedSessions(path: path).session(id)
  }

  public func flush() async throws {
    try await withCheckedThrowingContinuation { queue.enqueueFlush(WriteQueue.Waiter($0)) }
  }

  /// Commits a transaction that sets the schema version to itself.
  public func probe() async throws {
    try await withCheckedThrowingContinuation { queue.enqueueProbe(WriteQueue.Waiter($0)) }
  }

  public func close() async throws {
    try await withCheckedThrowingContinuation { queue.enqueueClose(WriteQueue.Waiter($0)) }
  }

  /// Transactions and changes written so far.
  public var statistics: PersistenceStatistics { queue.statistics }

  private func change(_ id: SessionID, _ change: PendingChange) async throws {
    switch durability {
    case .fast:
      guard queue.enqueue(id, change, waiter: nil) else { throw SessionPersistenceError.closed }
    case .strict:
      try await withCheckedThrowingContinuation { queue.enqueue(id, change, waiter: WriteQueue.Waiter($0)) }
    }
  }
}
