import Composable
import Foundation
import StoreHost
import Synchronization

/// Values shared by every process of a cluster, by key: kept in `storehost_shared`, cached in
/// each process, and announced on `PostgresSchema/sharedChannel` when changed, so a change
/// made in one process reaches subscribers in all the others (a shared counter changed
/// through process A reaches the sessions streaming from process B).
///
/// Reads are synchronous, from the cache, as a `SharedKey`'s `load()` needs; the cache is
/// filled by ``loadAll()`` on start and kept fresh by the announcements. Every change is a
/// compare-and-set on the row's version (``update(_:current:_:)``), run again on the fresher
/// value when another process came first, so concurrent changes through every process all
/// count. No lock is held during its round trips, nor while subscribers are told of a
/// value: a subscriber that may hear of values from several threads at once reads the
/// latest with ``value(forKey:)`` (a shared value does).
///
/// While the database cannot be reached, a change applies here at once and waits, one
/// value per key (later changes build on it), to be written by compare-and-set on the
/// version it was made on, once the database is back. If another process changed the
/// value meanwhile, the changes made here are dropped and the stored value wins: never a
/// silent last write. Both are reported (an issue through `reportIssue`, on standard error
/// by default) and counted in `metrics`.
///
/// ```swift
/// let values = cluster.sharedValues
/// let subscription = values.subscribe("visitors") { print("now", $0) }
/// values.update("visitors", current: "0") { String(Int($0)! + 1) }
/// ```
public final class ClusterSharedValues: Sendable {
  private struct Entry {
    var version: Int
    var value: String
    /// The write that stored it (`storehost_shared.write_id`), when known: how a change
    /// waiting here tells its own committed write from another process's equal value.
    var writeID: String?
  }

  private struct Values {
    var entries: [String: Entry] = [:]
    var subscribers: [String: [UInt64: @Sendable (String) -> Void]] = [:]
    var nextSubscriber: UInt64 = 0
    /// Changes made while the database could not be reached, per key: the version they
    /// were made on and the value they reached.
    var pending: [String: Entry] = [:]
    var dropped = 0
  }

  private let values = Mutex(Values())
  private let pool: PostgresPool
  private let processID: String

  init(pool: PostgresPool, processID: String) {
    self.pool = pool
    self.processID = processID
  }

  /// Fills the cache with every stored value.
  public func loadAll() async throws {
    let rows = try await pool.run { connection in
      try connection.execute("SELECT key, version, value FROM storehost_shared")
    }
    for row in rows {
      guard let key = row[0], let version = row[1].flatMap({ Int($0) }), let value = row[2] else { continue }
      deliver(key, Entry(version: version, value: value))
    }
  }

  /// The value under `key` as this process knows it, or `nil` when none is stored.
  public func value(forKey key: String) -> String? {
    values.withLock { $0.entries[key]?.value }
  }

  /// Sets the value under `key`, as ``update(_:current:_:)`` with a change that sets it.
  /// - Precondition: `key` holds no newline.
  public func set(_ value: String, forKey key: String) {
    update(key, current: value) { _ in value }
  }

  /// Applies `change` to the latest value under `key` and stores the result, atomically for
  /// the cluster: written only if the stored version is still the one `change` saw, else run
  /// again on the fresher value. Blocks the caller for the database round trips, holding no
  /// lock. `current` stands for the value when none is stored. While the database cannot
  /// be reached, the change applies here and waits to be written (see the type's
  /// documentation).
  /// - Returns: The value the change made.
  @discardableResult
  public func update(_ key: String, current: String, _ change: (String) throws -> String) rethrows -> String {
    try updateIfChanged(key, current: current, change)!
  }

  /// ``update(_:current:_:)`` with a change that may leave the value as it is (`nil`: then
  /// nothing is written, and `nil` is returned).
  @discardableResult
  func updateIfChanged(_ key: String, current: String, _ change: (String) throws -> String?) rethrows -> String? {
    precondition(!key.contains("\n"), "a shared key holds no newline")
    for _ in 0..<Self.maxUpdateAttempts {
      let (seen, isPending) = values.withLock { ($0.entries[key] ?? Entry(version: 0, value: current), $0.pending[key] != nil) }
      guard let value = try change(seen.value) else { return nil }
      let writeID = Self.newWriteID()
      if isPending { return hold(value, forKey: key, madeOn: seen.version, writeID: writeID) }
      switch attemptBlocking(value, forKey: key, expecting: seen.version, writeID: writeID) {
      case .stored(let version):
        deliver(key, Entry(version: version, value: value, writeID: writeID))
        return value
      case .changed(let fresher):
        deliver(key, fresher)
      case .absent:
        // Deleted from the table: the change is made again on no stored value.
        _ = values.withLock { $0.entries.removeValue(forKey: key) }
      case .unreachable:
        // The write may have committed: waiting, it is told apart by its id.
        return hold(value, forKey: key, madeOn: seen.version, writeID: writeID)
      }
    }
    // Writers kept coming first: the change waits, and is written by compare-and-set too.
    let seen = values.withLock { $0.entries[key] ?? Entry(version: 0, value: current) }
    guard let value = try change(seen.value) else { return nil }
    return hold(value, forKey: key, madeOn: seen.version, writeID: Self.newWriteID())
  }

  /// An id for one write, unique across the cluster.
  private static func newWriteID() -> String { UUID().uuidString }

  /// Writers racing for one key that many times in a row leave the change to the
  /// background writer.
  private static let maxUpdateAttempts = 32

  /// Calls `didChange` with each new value under `key`, set here or by another process, in
  /// the order of their versions, until cancelled.
  /// - Returns: Ends the subscription.
  public func subscribe(_ key: String, didChange: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
    let id = values.withLock { values in
      defer { values.nextSubscriber += 1 }
      values.subscribers[key, default: [:]][values.nextSubscriber] = didChange
      return values.nextSubscriber
    }
    return { [weak self] in
      self?.values.withLock { _ = $0.subscribers[key]?.removeValue(forKey: id) }
    }
  }

  /// The values' lines for `GET /metrics`.
  var metrics: [ClusterMetric] {
    let (pending, dropped) = values.withLock { ($0.pending.count, $0.dropped) }
    return [
      ClusterMetric(
        name: "storehost_shared_writes_pending", kind: .gauge,
        help: "Shared values changed while the database could not be reached, not written yet.", value: pending),
      ClusterMetric(
        name: "storehost_shared_changes_dropped_total", kind: .counter,
        help: "Shared values whose changes made without the database were dropped: another process changed them meanwhile.",
        value: dropped),
    ]
  }

  // MARK: Listener

  /// Applies a change announced by another process, newer than the cached one.
  func received(payload: String, on connection: PostgresConnection) {
    guard let notification = SharedValueNotification(payload: payload), notification.processID != processID
    else { return }
    if let value = notification.value {
      deliver(notification.key, Entry(version: notification.version, value: value))
    } else {
      refresh(notification.key, on: connection)
    }
  }

  /// Re-reads every cached key after the listener missed notifications.
  func resynchronize(on connection: PostgresConnection) {
    for key in values.withLock({ Array($0.entries.keys) }) { refresh(key, on: connection) }
  }

  // MARK: Internals

  private func refresh(_ key: String, on connection: PostgresConnection) {
    guard let fresh = try? Self.stored(key, on: connection) else { return }
    deliver(key, fresh)
  }

  /// Caches `entry` and tells the subscribers, when it is newer than the cached value and no
  /// change made here waits to be written (that change's write settles the key).
  private func deliver(_ key: String, _ entry: Entry) {
    let subscribers = values.withLock { values -> [@Sendable (String) -> Void] in
      guard values.pending[key] == nil, entry.version > values.entries[key]?.version ?? 0 else { return [] }
      values.entries[key] = entry
      return Array(values.subscribers[key, default: [:]].values)
    }
    for subscriber in subscribers { subscriber(entry.value) }
  }

  /// Applies `value`, made on `version` without the database, here, and keeps it to be
  /// written once the database is back, as the write `writeID` (a write of it that may have
  /// committed already carries that id).
  @discardableResult
  func hold(_ value: String, forKey key: String, madeOn version: Int, writeID: String = UUID().uuidString) -> String {
    let (isFirst, subscribers) = values.withLock { values -> (Bool, [@Sendable (String) -> Void]) in
      let isFirst = values.pending[key] == nil
      values.pending[key, default: Entry(version: version, value: value)].value = value
      values.pending[key]?.writeID = writeID
      values.entries[key] = Entry(version: values.entries[key]?.version ?? version, value: value)
      return (isFirst, Array(values.subscribers[key, default: [:]].values))
    }
    for subscriber in subscribers { subscriber(value) }
    if isFirst {
      reportIssue(
        "The shared value \"\(key)\" was changed while the database could not be reached: the change applies in this process and is written when the database is back, unless another process changes the value first.")
      Task { await writePending(key) }
    }
    return value
  }

  /// Writes the change waiting under `key` by compare-and-set on the version it was made
  /// on, retrying each second while the database cannot be reached, until the pool closes.
  private func writePending(_ key: String) async {
    while let pending = values.withLock({ $0.pending[key] }) {
      let writeID = pending.writeID ?? Self.newWriteID()
      guard let attempt = await attempt(pending.value, forKey: key, expecting: pending.version, writeID: writeID)
      else { return }
      switch attempt {
      case .stored(let version):
        didWrite(pending, forKey: key, as: version)
      case .changed(let fresher) where fresher.writeID == writeID:
        // This very write committed although its answer was lost.
        didWrite(pending, forKey: key, as: fresher.version)
      case .changed(let fresher):
        drop(pending: key, keeping: fresher)
        reportIssue(
          "Changes to the shared value \"\(key)\" made while the database could not be reached were dropped: another process changed it meanwhile, and its value (version \(fresher.version)) is kept.")
      case .absent:
        drop(pending: key, keeping: nil)
        reportIssue(
          "Changes to the shared value \"\(key)\" made while the database could not be reached were dropped: its stored value was deleted meanwhile.")
      case .unreachable:
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  /// The change waiting under `key` is stored, as `version`; one made on top of it meanwhile
  /// is written next, on that version.
  private func didWrite(_ pending: Entry, forKey key: String, as version: Int) {
    values.withLock { values in
      if values.pending[key]?.writeID == pending.writeID {
        values.pending[key] = nil
        values.entries[key]?.version = version
      } else {
        values.pending[key]?.version = version
      }
    }
  }

  /// Forgets the change waiting under `key`, counting it dropped, and keeps `stored` (or,
  /// when `nil`, no value) instead.
  private func drop(pending key: String, keeping stored: Entry?) {
    values.withLock { values in
      values.pending[key] = nil
      values.entries[key] = stored == nil ? nil : values.entries[key].map { Entry(version: 0, value: $0.value) }
      values.dropped += 1
    }
    if let stored { deliver(key, stored) }
  }

  private enum Attempt: Sendable {
    case stored(version: Int)
    /// Another write came first: the stored entry.
    case changed(Entry)
    /// The change was made on a version, and no value is stored any more.
    case absent
    case unreachable
  }

  private func attemptBlocking(_ value: String, forKey key: String, expecting version: Int, writeID: String) -> Attempt {
    let processID = processID
    return
      (try? pool.runBlocking {
        try Self.storeIfUnchanged(value, forKey: key, expecting: version, writeID: writeID, processID: processID, on: $0)
      }) ?? .unreachable
  }

  /// The outcome of one compare-and-set; `nil` once the pool is closed.
  private func attempt(_ value: String, forKey key: String, expecting version: Int, writeID: String) async -> Attempt? {
    let processID = processID
    do {
      return try await pool.run {
        try Self.storeIfUnchanged(value, forKey: key, expecting: version, writeID: writeID, processID: processID, on: $0)
      }
    } catch SessionPersistenceError.closed {
      return nil
    } catch {
      return .unreachable
    }
  }

  /// Stores `value` under `key` as the write `writeID` if the stored version is still
  /// `expected` (0: nothing stored), announcing it at commit; else returns the stored entry,
  /// or that none is stored.
  private static func storeIfUnchanged(
    _ value: String, forKey key: String, expecting expected: Int, writeID: String, processID: String,
    on connection: PostgresConnection
  ) throws -> Attempt {
    try connection.execute("BEGIN")
    do {
      let rows =
        expected == 0
        ? try connection.execute(
          """
          INSERT INTO storehost_shared (key, value, version, write_id) VALUES ($1, $2, 1, $3)
          ON CONFLICT DO NOTHING RETURNING version
          """,
          [key, value, writeID])
        : try connection.execute(
          """
          UPDATE storehost_shared SET value = $2, version = version + 1, write_id = $4
          WHERE key = $1 AND version = $3 RETURNING version
          """,
          [key, value, String(expected), writeID])
      guard let version = rows.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) else {
        let fresh = try stored(key, on: connection)
        try connection.execute("ROLLBACK")
        return fresh.map { .changed($0) } ?? .absent
      }
      let payload = SharedValueNotification(processID: processID, version: version, key: key, value: value).payload
      try connection.execute("SELECT pg_notify('\(PostgresSchema.sharedChannel)', $1)", [payload])
      try connection.execute("COMMIT")
      return .stored(version: version)
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
  }

  private static func stored(_ key: String, on connection: PostgresConnection) throws -> Entry? {
    let row = try connection.execute("SELECT version, value, write_id FROM storehost_shared WHERE key = $1", [key]).first
    guard let row, let version = row[0].flatMap({ Int($0) }), let value = row[1] else { return nil }
    return Entry(version: version, value: value, writeID: row[2] ?? nil)
  }
}
