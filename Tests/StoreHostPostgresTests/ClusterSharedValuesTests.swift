import Composable
import Foundation
import StoreHost
import Synchronization
import Testing

@testable import StoreHostPostgres

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

  @Test func changesMadeWithoutTheDatabaseAreWrittenWhenItIsBack() async throws {
    let (a, b) = (try await cluster("a"), try await cluster("b"))
    defer { Task { await a.leave(); await b.leave() } }
    let key = "offline-\(UUID().uuidString)"
    a.sharedValues.set("1", forKey: key)
    // Two changes made while the database could not be reached, on the stored version 1.
    let issues = try await reportedIssues {
      a.sharedValues.hold("2", forKey: key, madeOn: 1)
      a.sharedValues.hold("3", forKey: key, madeOn: 1)
    }
    #expect(issues.count == 1 && issues[0].contains("could not be reached"))
    #expect(a.sharedValues.value(forKey: key) == "3")
    try await eventually { b.sharedValues.value(forKey: key) == "3" && pending(a) == 0 }
    #expect(dropped(a) == 0)
  }

  @Test func changesMadeWithoutTheDatabaseNeverOverwriteAnotherProcesssChange() async throws {
    let (a, b) = (try await cluster("a"), try await cluster("b"))
    defer { Task { await a.leave(); await b.leave() } }
    let key = "conflict-\(UUID().uuidString)"
    a.sharedValues.set("1", forKey: key)
    try await eventually { b.sharedValues.value(forKey: key) == "1" }
    b.sharedValues.update(key, current: "0") { String(Int($0)! + 10) }
    let issues = try await reportedIssues {
      a.sharedValues.hold("2", forKey: key, madeOn: 1)
      try await eventually { dropped(a) == 1 }
    }
    #expect(issues.contains { $0.contains("were dropped") })
    try await eventually { a.sharedValues.value(forKey: key) == "11" }
    #expect(b.sharedValues.value(forKey: key) == "11")
  }

  @Test func aChangeMadeWithoutTheDatabaseIsNotTakenAsWrittenWhenAnotherProcessStoredAnEqualValue() async throws {
    let (a, b) = (try await cluster("a"), try await cluster("b"))
    defer { Task { await a.leave(); await b.leave() } }
    let key = "equal-\(UUID().uuidString)"
    a.sharedValues.set("1", forKey: key)
    try await eventually { b.sharedValues.value(forKey: key) == "1" }
    // Both add one to 1: b writes 2 first, a's 2 waited while the database was away.
    b.sharedValues.update(key, current: "0") { String(Int($0)! + 1) }
    let issues = try await reportedIssues {
      a.sharedValues.hold("2", forKey: key, madeOn: 1)
      try await eventually { dropped(a) == 1 }
    }
    #expect(issues.contains { $0.contains("were dropped") })
    #expect(pending(a) == 0)
  }

  @Test func aChangeMadeWithoutTheDatabaseOnAValueDeletedMeanwhileIsDroppedAndReported() async throws {
    let a = try await cluster("a")
    defer { Task { await a.leave() } }
    let key = "deleted-\(UUID().uuidString)"
    a.sharedValues.set("1", forKey: key)
    try await a.persistence.pool.run { try $0.execute("DELETE FROM storehost_shared WHERE key = $1", [key]) }
    let issues = try await reportedIssues {
      a.sharedValues.hold("2", forKey: key, madeOn: 1)
      try await eventually { dropped(a) == 1 }
    }
    #expect(issues.contains { $0.contains("deleted") })
    #expect(a.sharedValues.value(forKey: key) == nil)
  }

  @Test func aValueThatCannotBeEncodedIsReportedAndNotStored() async throws {
    let a = try await cluster("a")
    defer { Task { await a.leave() } }
    let name = "ratio-\(UUID().uuidString)"
    let key = ClusterSharedKey<Double>(key: name, values: a.sharedValues)
    key.save(0.5)
    let issues = try await reportedIssues {
      // JSON has no NaN: JSONEncoder refuses it.
      let kept = key.update(from: 0.5) { $0 = .nan }
      #expect(kept == 0.5)
    }
    #expect(issues.contains { $0.contains("Could not encode") })
    #expect(a.sharedValues.value(forKey: name) == "0.5")
  }

  @Test func aChangeWhileTheDatabaseIsUnreachableAppliesHereAndWaits() async throws {
    let pool = PostgresPool(url: "postgres://storehost@127.0.0.1:1/nowhere", size: 1)
    defer { pool.close() }
    let values = ClusterSharedValues(pool: pool, processID: "test-offline")
    let issues = try await reportedIssues {
      values.update("visitors", current: "0") { String(Int($0)! + 1) }
      values.update("visitors", current: "0") { String(Int($0)! + 1) }
    }
    #expect(values.value(forKey: "visitors") == "2")
    #expect(values.metrics.first { $0.name == "storehost_shared_writes_pending" }?.value == 1)
    #expect(issues.count == 1)
  }

  private func pending(_ cluster: PostgresCluster) -> Int? {
    cluster.sharedValues.metrics.first { $0.name == "storehost_shared_writes_pending" }?.value
  }

  private func dropped(_ cluster: PostgresCluster) -> Int? {
    cluster.sharedValues.metrics.first { $0.name == "storehost_shared_changes_dropped_total" }?.value
  }

  private func eventually(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      guard ContinuousClock.now < deadline else {
        Issue.record("the condition did not become true within 10 s")
        return
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// The issues `body` reports, through `reportIssue`.
  private func reportedIssues(_ body: () async throws -> Void) async throws -> [String] {
    let recorder = IssueRecorder()
    try await IssueReporters.$current.withValue([recorder]) { try await body() }
    return recorder.messages.withLock { $0 }
  }

  /// A cluster whose listener is connected, so it hears every later change.
  private func cluster(_ name: String) async throws -> PostgresCluster {
    let persistence = try await PostgresSessionPersistence.open(url: url, processID: "test-\(name)-\(UUID().uuidString)")
    let cluster = PostgresCluster(persistence: persistence)
    try await cluster.sharedValues.loadAll()
    await withCheckedContinuation { (listening: CheckedContinuation<Void, Never>) in
      cluster.listener.submit { _ in listening.resume() }
    }
    return cluster
  }
}

/// Keeps the issues reported to it.
private final class IssueRecorder: IssueReporter, Sendable {
  let messages = Mutex<[String]>([])

  func reportIssue(_ message: String, at location: Composable.SourceLocation) {
    messages.withLock { $0.append(message) }
  }
}
