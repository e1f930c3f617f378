import Synchronization

/// Values shared by every process of a cluster, by key: kept in `storehost_shared`, cached in
/// each process, and announced on ``PostgresSchema/sharedChannel`` when changed, so a change
/// made in one process reaches subscribers in all the others (a shared counter changed
/// through process A reaches the sessions streaming from process B).
///
/// Reads are synchronous, from the cache, as a `SharedKey`'s `load()` needs; the cache is
/// filled by ``loadAll()`` on start and kept fresh by the announcements. ``set(_:forKey:)``
/// updates the cache at once and writes in the background, coalescing changes to one key
/// that arrive during a write. Concurrent writers of one key from different processes: the
/// last commit wins, and every process ends with that value (its version is the highest).
///
/// ```swift
/// let values = cluster.sharedValues
/// let subscription = values.subscribe("visitors") { print("now", $0) }
/// values.set("42", forKey: "visitors")
/// ```
public final class ClusterSharedValues: Sendable {
  private struct Entry {
    var version: Int
    var value: String
  }

  private struct Values {
    var entries: [String: Entry] = [:]
    var subscribers: [String: [UInt64: @Sendable (String) -> Void]] = [:]
    var nextSubscriber: UInt64 = 0
    /// The latest value waiting to be written, per key.
    var pendingWrites: [String: String] = [:]
    var writing: Set<String> = []
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
    values.withLock { values in
      for row in rows {
        guard let key = row[0], let version = row[1].flatMap({ Int($0) }), let value = row[2] else { continue }
        values.entries[key] = Entry(version: version, value: value)
      }
    }
  }

  /// The value under `key` as this process knows it, or `nil` when none is stored.
  public func value(forKey key: String) -> String? {
    values.withLock { $0.entries[key]?.value }
  }

  /// Sets the value under `key` here at once, and for every process once written.
  /// - Precondition: `key` holds no newline.
  public func set(_ value: String, forKey key: String) {
    precondition(!key.contains("\n"), "a shared key holds no newline")
    let startWriting = values.withLock { values in
      values.entries[key, default: Entry(version: 0, value: value)].value = value
      values.pendingWrites[key] = value
      return values.writing.insert(key).inserted
    }
    if startWriting { Task { await write(key) } }
  }

  /// Applies `change` to the latest value under `key` and stores the result, atomically for
  /// the cluster: written only if the stored version is still the one `change` saw, else run
  /// again on the fresher value. Blocks the caller for the database round trips. `current`
  /// stands for the value when none is stored. While the database is unreachable, the
  /// change applies to the cached value and is written later, like ``set(_:forKey:)``.
  /// - Returns: The value stored.
  public func update(_ key: String, current: String, _ change: (String) throws -> String) rethrows -> String {
    precondition(!key.contains("\n"), "a shared key holds no newline")
    var seen = values.withLock { $0.entries[key] } ?? Entry(version: 0, value: current)
    for _ in 0..<Self.maxUpdateAttempts {
      let value = try change(seen.value)
      switch storeIfUnchanged(value, forKey: key, expecting: seen) {
      case .stored(let version):
        values.withLock { values in
          if version > values.entries[key]?.version ?? 0 { values.entries[key] = Entry(version: version, value: value) }
        }
        return value
      case .changed(let fresher):
        seen = fresher
      case .unreachable:
        set(value, forKey: key)
        return value
      }
    }
    let value = try change(seen.value)
    set(value, forKey: key)
    return value
  }

  /// Writers racing for one key that many times in a row: the change is then written as a
  /// plain set.
  private static let maxUpdateAttempts = 32

  private enum Attempt: Sendable {
    case stored(version: Int)
    case changed(Entry)
    case unreachable
  }

  /// Stores `value` under `key` if the stored version is still the one of `seen` (0: nothing
  /// stored), announcing it at commit; else returns the stored entry.
  private func storeIfUnchanged(_ value: String, forKey key: String, expecting seen: Entry) -> Attempt {
    let expected = seen.version
    let processID = processID
    do {
      return try pool.runBlocking { connection -> Attempt in
        try connection.execute("BEGIN")
        do {
          let rows =
            expected == 0
            ? try connection.execute(
              "INSERT INTO storehost_shared (key, value, version) VALUES ($1, $2, 1) ON CONFLICT DO NOTHING RETURNING version",
              [key, value])
            : try connection.execute(
              "UPDATE storehost_shared SET value = $2, version = version + 1 WHERE key = $1 AND version = $3 RETURNING version",
              [key, value, String(expected)])
          guard let version = rows.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) else {
            let fresh = try connection.execute("SELECT version, value FROM storehost_shared WHERE key = $1", [key]).first
            try connection.execute("ROLLBACK")
            guard let fresh, let version = fresh[0].flatMap({ Int($0) }), let stored = fresh[1] else {
              return .changed(Entry(version: 0, value: seen.value))
            }
            return .changed(Entry(version: version, value: stored))
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
    } catch {
      return .unreachable
    }
  }

  /// Calls `didChange` with each value another process sets under `key`, until cancelled.
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

  // MARK: Listener

  /// Applies a change announced by another process, newer than the cached one.
  func received(payload: String, on connection: PostgresConnection) {
    guard let notification = SharedValueNotification(payload: payload), notification.processID != processID
    else { return }
    if let value = notification.value {
      apply(key: notification.key, version: notification.version, value: value)
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
    guard
      let row = try? connection.execute("SELECT version, value FROM storehost_shared WHERE key = $1", [key]).first,
      let version = row[0].flatMap({ Int($0) }), let value = row[1]
    else { return }
    apply(key: key, version: version, value: value)
  }

  private func apply(key: String, version: Int, value: String) {
    let subscribers = values.withLock { values -> [@Sendable (String) -> Void] in
      guard version > values.entries[key]?.version ?? 0 else { return [] }
      values.entries[key] = Entry(version: version, value: value)
      return Array(values.subscribers[key, default: [:]].values)
    }
    for subscriber in subscribers { subscriber(value) }
  }

  /// Writes the pending value of `key` until none is left; a failed write is retried after a
  /// second (the value stays cached here meanwhile).
  private func write(_ key: String) async {
    while let value = values.withLock({ values -> String? in
      guard let value = values.pendingWrites.removeValue(forKey: key) else {
        values.writing.remove(key)
        return nil
      }
      return value
    }) {
      do {
        try await store(value, forKey: key)
      } catch {
        values.withLock { values in
          if values.pendingWrites[key] == nil { values.pendingWrites[key] = value }
        }
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  private func store(_ value: String, forKey key: String) async throws {
    let processID = processID
    let version = try await pool.run { connection -> Int in
      try connection.execute("BEGIN")
      do {
        let rows = try connection.execute(
          """
          INSERT INTO storehost_shared AS s (key, value, version) VALUES ($1, $2, 1)
          ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = s.version + 1
          RETURNING version
          """, [key, value])
        guard let version = rows.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) else {
          throw SessionPersistenceError.invalidRecord("storehost_shared returned no version")
        }
        let payload = SharedValueNotification(processID: processID, version: version, key: key, value: value).payload
        try connection.execute("SELECT pg_notify('\(PostgresSchema.sharedChannel)', $1)", [payload])
        try connection.execute("COMMIT")
        return version
      } catch {
        _ = try? connection.execute("ROLLBACK")
        throw error
      }
    }
    values.withLock { values in
      if let entry = values.entries[key], entry.version < version { values.entries[key]!.version = version }
    }
  }
}
