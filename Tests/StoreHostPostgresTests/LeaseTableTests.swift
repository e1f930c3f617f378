import StoreHost
import Testing

@testable import StoreHostPostgres

/// When a process may serve a session without asking the database: its lease holds, and no
/// pause or lost connection since the session was confirmed could have let another process
/// take it.
@Suite struct LeaseTableTests {
  private let id = SessionID("BjJLWFhyMjcIt0JY9l0Yow")!
  private let other = SessionID("Xq3LWFhyMjcIt0JY9l0Yow")!
  private let start = ContinuousClock.now

  /// A table whose lock is held, renewed at `start` (the database's clock at 100 s).
  private func renewedTable() -> LeaseTable {
    var table = LeaseTable(lease: .milliseconds(1500), margin: .milliseconds(500), now: start)
    table.lockAcquired()
    let ticket = table.begin(now: start)
    _ = table.renewed(ticket, stored: 100, after: 100.01, now: start)
    return table
  }

  /// Renews at `offset` after `start`, the database's clock having moved as much.
  private func renew(_ table: inout LeaseTable, at offset: Double) -> LeaseTable.Ticket {
    let now = start + .milliseconds(Int(offset * 1000))
    let ticket = table.begin(now: now)
    return table.renewed(ticket, stored: 100 + offset, after: 100 + offset + 0.01, now: now)
  }

  @Test func aConfirmedSessionIsServedUntilTheLeaseLessTheMarginRunsOut() {
    var table = renewedTable()
    table.confirm(id, epoch: 3, table.begin(now: start))
    #expect(table.isServing(id, epoch: 3, now: start + .milliseconds(999)))
    #expect(!table.isServing(id, epoch: 3, now: start + .milliseconds(1000)))
    #expect(!table.isServing(id, epoch: 4, now: start))
    #expect(!table.isServing(other, epoch: 3, now: start))
  }

  @Test func renewalsOnTimeKeepEverySessionServed() {
    var table = renewedTable()
    table.confirm(id, epoch: 3, table.begin(now: start))
    for offset in [0.5, 1.0, 1.5, 2.0] { _ = renew(&table, at: offset) }
    #expect(table.isServing(id, epoch: 3, now: start + .milliseconds(2900)))
    #expect(!table.needsFullCheck)
    #expect(table.gaps == 0)
  }

  @Test func afterAPauseNoSessionIsServedUntilConfirmedAgain() {
    var table = renewedTable()
    table.confirm(id, epoch: 3, table.begin(now: start))
    table.confirm(other, epoch: 1, table.begin(now: start))
    // Stopped for 3 s: the next heartbeat comes long after the last one.
    let ticket = renew(&table, at: 3.0)
    let now = start + .seconds(3)
    #expect(table.gaps == 1 && table.needsFullCheck)
    #expect(!table.isServing(id, epoch: 3, now: now))
    // The heartbeat that found the gap came after it: what it reads holds.
    let lost = table.checked(owned: [id: 3], ticket)
    #expect(lost == [other])
    #expect(table.isServing(id, epoch: 3, now: now))
    #expect(!table.isServing(other, epoch: 1, now: now))
    #expect(!table.needsFullCheck)
  }

  @Test func aConfirmationThatStartedBeforeAPauseDoesNotCount() {
    var table = renewedTable()
    let early = table.begin(now: start)
    _ = renew(&table, at: 3.0)
    table.confirm(id, epoch: 3, early)
    #expect(!table.isServing(id, epoch: 3, now: start + .seconds(3)))
  }

  @Test func aCheckDoesNotJudgeSessionsConfirmedAfterItStarted() {
    var table = renewedTable()
    let check = table.begin(now: start)
    table.confirm(id, epoch: 3, table.begin(now: start))
    #expect(table.checked(owned: [:], check).isEmpty)
    #expect(table.isServing(id, epoch: 3, now: start))
  }

  @Test func aLostLockStopsEverySessionUntilRenewedAndConfirmed() {
    var table = renewedTable()
    table.confirm(id, epoch: 3, table.begin(now: start))
    table.lockLost(now: start + .milliseconds(100))
    #expect(!table.isServing(id, epoch: 3, now: start + .milliseconds(100)))
    table.lockAcquired()
    let ticket = renew(&table, at: 0.5)
    #expect(!table.isServing(id, epoch: 3, now: start + .milliseconds(600)))
    _ = table.checked(owned: [id: 3], ticket)
    #expect(table.isServing(id, epoch: 3, now: start + .milliseconds(600)))
  }

  @Test func aLaterEpochIsKeptAndOnlyItsOwnReleaseForgetsIt() {
    var table = renewedTable()
    table.confirm(id, epoch: 5, table.begin(now: start))
    table.confirm(id, epoch: 4, table.begin(now: start))
    #expect(table.isServing(id, epoch: 5, now: start))
    table.release(id, epoch: 4)
    #expect(table.isServing(id, epoch: 5, now: start))
    table.release(id, epoch: 5)
    #expect(!table.isServing(id, epoch: 5, now: start))
  }

  @Test func aSessionCreatedAcrossAPauseWaitsForAConfirmation() {
    var table = renewedTable()
    let created = start + .milliseconds(100)
    _ = renew(&table, at: 3.0)
    table.confirmCreated(id, epoch: 1, startedAt: created)
    #expect(!table.isServing(id, epoch: 1, now: start + .seconds(3)))
    table.confirmCreated(other, epoch: 1, startedAt: start + .milliseconds(3100))
    #expect(table.isServing(other, epoch: 1, now: start + .milliseconds(3200)))
  }
}
