import Foundation

@testable import StoreHost

/// A fresh directory for one test's database, removed by `remove()`.
struct TemporaryDatabase {
  let directory = NSTemporaryDirectory() + "storehost-db-\(UUID().uuidString)"
  var path: String { directory + "/sessions.sqlite" }

  init() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func open(_ durability: Durability = .fast, batchDelay: Duration = .milliseconds(20)) async throws
    -> SQLiteSessionPersistence
  {
    try await SQLiteSessionPersistence.open(path: path, durability: durability, batchDelay: batchDelay)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// A snapshot whose state records its version, with whole-millisecond times as stored.
func snapshot(_ id: SessionID, version: Int, created: Double = 1_700_000_000, lastActive: Double? = nil)
  -> SessionSnapshot
{
  SessionSnapshot(
    id: id, version: version, state: JSONValue.object(["count": .int(Int64(version))]).serialized(),
    createdAt: Date(timeIntervalSince1970: created),
    lastActiveAt: Date(timeIntervalSince1970: lastActive ?? created + Double(version)))
}

/// What `persistence` loads once it equals `expected`, or after 5 seconds of polling.
func eventuallyLoad(_ expected: [SessionSnapshot], from persistence: some SessionPersistence) async throws
  -> [SessionSnapshot]
{
  let deadline = ContinuousClock.now + .seconds(5)
  var loaded = try await persistence.loadAll()
  while loaded != expected, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(10))
    loaded = try await persistence.loadAll()
  }
  return loaded
}
