import Foundation
import Synchronization
import Testing

@testable import StoreHost

/// Shared values between two clusters on one real PostgreSQL, as two processes would be.
/// Runs when `STOREHOST_TEST_DATABASE` names a database (Tests/Integration/cluster_postgres.sh
/// sets it); skipped otherwise.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] != nil))
struct ClusterSharedValuesTests {
  private let url = ProcessInfo.processInfo.environment["STOREHOST_TEST_DATABASE"] ?? ""

  @Test func aChangeInOneProcessReachesTheOther() async throws {
    let (a, b) = (try await cluster("a"), try await cluster("b"))
    defer { Task { await a.leave(); await b.leave() } }
    let key = "counter-\(UUID().uuidString)"
    for value in ["1", String(repeating: "7", count: 9000)] {
      let seen = Mutex<[String]>([])
      let cancel = b.sharedValues.subscribe(key) { value in seen.withLock { $0.append(value) } }
      a.sharedValues.set(value, forKey: key)
      #expect(a.sharedValues.value(forKey: key) == value)
      let deadline = ContinuousClock.now + .seconds(5)
      while seen.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      cancel()
      #expect(seen.withLock { $0 } == [value])
      #expect(b.sharedValues.value(forKey: key) == value)
    }
  }

  @Test func aStartingProcessLoadsStoredValues() async throws {
    let a = try await cluster("a")
    defer { Task { await a.leave() } }
    let key = "greeting-\(UUID().uuidString)"
    a.sharedValues.set("hello", forKey: key)
    let deadline = ContinuousClock.now + .seconds(5)
    var later = try await cluster("c")
    while later.sharedValues.value(forKey: key) == nil, ContinuousClock.now < deadline {
      await later.leave()
      try await Task.sleep(for: .milliseconds(20))
      later = try await cluster("c")
    }
    #expect(later.sharedValues.value(forKey: key) == "hello")
    await later.leave()
  }

  /// A cluster whose listener is connected, so it hears every later change.
  private func cluster(_ name: String) async throws -> SessionCluster {
    let persistence = try await PostgresSessionPersistence.open(url: url, processID: "test-\(name)-\(UUID().uuidString)")
    let cluster = SessionCluster(persistence: persistence, eventHistoryLength: 4)
    try await cluster.sharedValues.loadAll()
    await withCheckedContinuation { (listening: CheckedContinuation<Void, Never>) in
      cluster.listener.submit { _ in listening.resume() }
    }
    return cluster
  }
}
