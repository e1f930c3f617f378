import Foundation
import Testing

@testable import StoreHost

@Suite struct SessionHistoryTests {
  private func step(_ history: inout SessionHistory, version: Int) {
    let checkpoint = history.needsCheckpoint ? HistoryCheckpoint(json: Array("{\"v\":\(version)}".utf8)) : nil
    history.append(version: version, stateVersion: 0, json: Array("{}".utf8), checkpoint: checkpoint)
  }

  @Test func itKeepsTheLatestStepsBackToAWholeStateAndNoMore() {
    var history = SessionHistory(capacity: 50, keepsSavedSteps: true)
    #expect(history.checkpointInterval == 5)
    for version in 0..<1_000 {
      step(&history, version: version)
      #expect(history.steps.count <= 50 + 5 - 1)
      #expect(history.steps.count >= min(version + 1, 50))
      #expect(history.steps.first?.checkpoint != nil)
      #expect(history.steps.last?.version == version)
    }
    // Whole states every five steps: any version is at most four patches from one.
    let gaps = history.steps.split { $0.checkpoint != nil }.map(\.count) as [Int]
    #expect(gaps.allSatisfy { $0 <= 4 })
  }

  @Test func aSaveWritesTheUnsavedStepsUpToItsVersionAndTheFirstKeptStep() {
    var history = SessionHistory(capacity: 30, keepsSavedSteps: true)
    for version in 0..<6 { step(&history, version: version) }
    let (steps, firstKept) = history.unsavedSteps(through: 3)
    #expect(steps.map(\.version) == [0, 1, 2, 3])
    #expect(firstKept == 0)
    history.didSave(through: steps.last!.step)
    #expect(history.unsavedSteps(through: 10).steps.map(\.version) == [4, 5])
    // The whole state of a saved step is written: the first step keeps one.
    #expect(steps.first?.record.state == Array(#"{"v":0}"#.utf8))
    #expect(steps.dropFirst().first?.record.state == nil)
  }

  @Test func aRestoredHistoryGoesOnFromItsLastStepAndIsSaved() {
    let records = (3..<8).map { step in
      HistoryRecord(
        step: step, version: step * 2, stateVersion: 0, json: Array("{}".utf8),
        state: step == 3 || step == 5 ? Array("{}".utf8) : nil)
    }
    // Steps before the first whole state cannot be read: they are left out.
    var history = SessionHistory(capacity: 100, keepsSavedSteps: true, restored: [HistoryRecord(step: 2, version: 4, stateVersion: 0, json: [], state: nil)] + records)
    #expect(history.steps.map(\.step) == [3, 4, 5, 6, 7])
    #expect(history.nextStep == 8)
    #expect(history.unsavedSteps(through: 100).steps.isEmpty)
    step(&history, version: 20)
    #expect(history.unsavedSteps(through: 100).steps.map(\.step) == [8])
  }

  @Test func clearingLeavesNothingAndTheNextStepKeepsTheWholeState() {
    var history = SessionHistory(capacity: 10, keepsSavedSteps: true)
    for version in 0..<4 { step(&history, version: version) }
    history.removeAll()
    #expect(history.steps.isEmpty)
    #expect(history.needsCheckpoint)
    #expect(history.firstKeptStep == 4)
    step(&history, version: 4)
    #expect(history.steps.map(\.step) == [4])
    #expect(history.unsavedSteps(through: 4).firstKeptStep == 4)
  }

  @Test func whereStorageKeepsTheStepsMemoryHoldsOnlyThoseNotSavedYet() {
    var history = SessionHistory(capacity: 30, keepsSavedSteps: false)
    for version in 0..<100 { step(&history, version: version) }
    #expect(history.steps.count <= 32)
    let (unsaved, firstKept) = history.unsavedSteps(through: 95)
    history.didSave(through: unsaved.last!.step)
    #expect(history.steps.map(\.version) == [96, 97, 98, 99])
    // Where the whole states are is still known: what is kept, and where it starts.
    #expect(firstKept == history.firstKeptStep && history.steps.count == 4)
    #expect(history.checkpoints.first?.step == firstKept)
    #expect(history.keptVersions == firstKept...99)
    #expect(history.nextStep - firstKept >= 30 && history.nextStep - firstKept < 33)
  }

  @Test func savedStepsLeaveNoRoomBehindInMemory() {
    var history = SessionHistory(capacity: 500, keepsSavedSteps: false)
    // A burst of steps waits for its save: the array grows to hold them.
    for version in 0..<300 { step(&history, version: version) }
    #expect(history.steps.capacity >= 300)
    history.didSave(through: history.unsavedSteps(through: 297).steps.last!.step)
    #expect(history.steps.map(\.version) == [298, 299])
    #expect(history.steps.capacity < 16)
    history.didSave(through: history.unsavedSteps(through: 299).steps.last!.step)
    #expect(history.steps.isEmpty && history.steps.capacity == 0)
    step(&history, version: 300)
    #expect(history.steps.map(\.version) == [300])
  }

  @Test func anOutlineOfTheSavedStepsIsEnoughToGoOnFromThem() {
    let outline = (0..<40).map { step in
      HistoryRecord(step: step, version: step, stateVersion: 0, json: [], state: step.isMultiple(of: 3) ? [] : nil)
    }
    var history = SessionHistory(capacity: 30, keepsSavedSteps: false, restored: outline)
    #expect(history.steps.isEmpty && history.nextStep == 40)
    #expect(history.firstKeptStep == 9 && history.keptVersions == 9...39)
    step(&history, version: 40)
    #expect(history.unsavedSteps(through: 40).steps.map(\.step) == [40])
    #expect(history.unsavedSteps(through: 40).firstKeptStep == 9)
  }

  @Test func itKeepsNoMoreBytesThanItsBoundAllows() {
    var history = SessionHistory(capacity: 1_000, maxBytes: 10_000, keepsSavedSteps: true)
    let stepJSON = Array(repeating: UInt8(ascii: " "), count: 100)
    for version in 0..<5_000 {
      let checkpoint = history.needsCheckpoint ? HistoryCheckpoint(json: Array("{}".utf8)) : nil
      history.append(version: version, stateVersion: 0, json: stepJSON, checkpoint: checkpoint)
      let kept = history.steps.reduce(0) { $0 + $1.json.count }
      // The bound, and at most the steps back to the last whole state before it.
      #expect(kept <= 10_000 + history.checkpointInterval * 100)
      #expect(history.steps.first?.checkpoint != nil)
    }
    #expect(history.steps.count < 1_000)
    #expect(history.steps.last?.version == 4_999)
  }
}
