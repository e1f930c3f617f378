import Foundation
import Testing

@testable import StoreHost

/// The steps `range`, each at twice its number's version, keeping the whole state at `wholeStates`.
private func steps(_ range: ClosedRange<Int>, stateVersion: Int = 1, wholeStates: Set<Int> = []) -> [HistoryRecord] {
  range.map { step in
    HistoryRecord(
      step: step, version: step * 2, stateVersion: stateVersion, json: Array(#"{"version":\#(step * 2)}"#.utf8),
      state: wholeStates.contains(step) ? Array(#"{"count":\#(step)}"#.utf8) : nil)
  }
}

/// A new `history_runs` table in a file of its own, given to `body`.
private func withTable(_ body: (HistoryTable, SQLiteConnection) throws -> Void) throws {
  let database = try TemporaryDatabase()
  defer { database.remove() }
  let connection = try SQLiteConnection(path: database.path)
  try HistoryTable.create(in: connection)
  try body(try HistoryTable(connection), connection)
}

private func rowCount(_ connection: SQLiteConnection, _ id: SessionID) throws -> Int64 {
  let count = try connection.prepare("SELECT count(*) FROM history_runs WHERE session_id = ?1")
  try count.bind(.text(id.rawValue))
  _ = try count.step()
  return count.integer(at: 0)
}

@Suite struct HistoryTableTests {
  let id = SessionID.random()

  @Test func aRunBeginsAtEachWholeStateAtANewStateVersionAndAfterAGap() {
    let records = steps(0...7, wholeStates: [0, 5]) + steps(8...8, stateVersion: 2) + steps(10...11, stateVersion: 2)
    let runs = HistoryRun.runs(in: records)
    #expect(runs.map(\.first.step) == [0, 5, 8, 10])
    #expect(runs.map(\.last.step) == [4, 7, 8, 11])
    #expect(HistoryRun.runs(in: []).isEmpty)
  }

  @Test func aRunsStepsComeBackAsWrittenAndACutBlobGivesTheStepsBeforeTheCut() {
    var records = steps(3...6, wholeStates: [3])
    records[2].json = []
    let run = HistoryRun(records: records[...])
    let encoded = run.encodedSteps
    let decoded = encoded.withUnsafeBytes {
      HistoryRun.records(inSteps: $0, firstStep: 3, stateVersion: 1, state: records[0].state)
    }
    #expect(decoded == records)
    let cut = encoded.dropLast(3).withUnsafeBytes {
      HistoryRun.records(inSteps: $0, firstStep: 3, stateVersion: 1, state: records[0].state)
    }
    #expect(cut == Array(records.prefix(3)))
  }

  @Test func aSaveOfManyStepsTakesARowPerRunAndReadsBackWhole() throws {
    try withTable { table, connection in
      let records = steps(0...24, wholeStates: [0, 10, 20])
      try table.write(HistoryWrite(records: records, firstKeptStep: 0), of: id)
      #expect(try rowCount(connection, id) == 3)
      #expect(try table.read(id) == records)
      // The outline: where the whole states are, and the last step.
      let outline = try #require(try table.readOutlines()[id])
      #expect(outline.map(\.step) == [0, 10, 20, 24])
      #expect(outline.map(\.version) == [0, 20, 40, 48])
      #expect(outline.map(\.state) == [[], [], [], nil] && outline.allSatisfy(\.json.isEmpty))
    }
  }

  @Test func aSessionEndingAtAWholeStateHasItOnceInItsOutline() throws {
    try withTable { table, _ in
      try table.write(HistoryWrite(records: steps(0...3, wholeStates: [0, 3]), firstKeptStep: 0), of: id)
      #expect(try table.readOutlines()[id]?.map(\.step) == [0, 3])
      #expect(try table.readOutlines()[id]?.map(\.state) == [[], []])
    }
  }

  @Test func stepsWrittenAgainFromARunsFirstStepReplaceIt() throws {
    try withTable { table, connection in
      try table.write(HistoryWrite(records: steps(0...4, wholeStates: [0]), firstKeptStep: 0), of: id)
      // A save that finds the steps an earlier one stored, before it said so, writes them again.
      var again = steps(0...7, wholeStates: [0])
      again[1].json = Array(#"{"again":true}"#.utf8)
      try table.write(HistoryWrite(records: again, firstKeptStep: 0, dropsEarlierSteps: false), of: id)
      #expect(try table.read(id) == again)
      #expect(try rowCount(connection, id) == 1)
      try table.write(HistoryWrite(records: steps(8...9), firstKeptStep: 0, dropsEarlierSteps: false), of: id)
      #expect(try table.read(id) == again + steps(8...9))
      #expect(try rowCount(connection, id) == 2)
    }
  }

  @Test func aLongerRunReplacesTheRunsThatBeginWithinIt() throws {
    try withTable { table, connection in
      // Three saves' runs, then the whole history written again as one run (a session copied).
      for range in [0...4, 5...9, 10...14] {
        try table.write(
          HistoryWrite(records: steps(range, wholeStates: [0]), firstKeptStep: 0, dropsEarlierSteps: false), of: id)
      }
      #expect(try rowCount(connection, id) == 3)
      var copied = steps(0...14, wholeStates: [0])
      copied[7].json = Array(#"{"copied":true}"#.utf8)
      try table.write(HistoryWrite(records: copied, firstKeptStep: 0), of: id)
      #expect(try table.read(id) == copied)
      #expect(try rowCount(connection, id) == 1)
    }
  }

  @Test func theRunsBeforeTheFirstKeptStepAreDeletedAndOtherSessionsKeepTheirs() throws {
    try withTable { table, connection in
      let other = SessionID.random()
      let records = steps(0...24, wholeStates: [0, 10, 20])
      try table.write(HistoryWrite(records: records, firstKeptStep: 0), of: id)
      try table.write(HistoryWrite(records: records, firstKeptStep: 0), of: other)
      try table.write(HistoryWrite(records: steps(25...26), firstKeptStep: 10), of: id)
      #expect(try table.read(id) == Array(records.dropFirst(10)) + steps(25...26))
      #expect(try table.read(other) == records)
      try table.delete(id)
      #expect(try table.read(id).isEmpty && rowCount(connection, id) == 0)
      #expect(try table.read(other) == records)
    }
  }
}
