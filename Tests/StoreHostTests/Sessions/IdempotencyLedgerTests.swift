import Foundation
import Testing

@testable import StoreHost

@Suite struct IdempotencyLedgerTests {
  private let now = Date(timeIntervalSince1970: 1_700_000_000)

  private func answer(_ key: String, digest: String = "d", version: Int = 1, at: Date) -> RememberedAnswer {
    RememberedAnswer(key: key, bodyDigest: digest, status: 202, body: #"{"version":\#(version)}"#, version: version, answeredAt: at)
  }

  @Test func aKeyProceedsOnceThenReplaysItsAnswer() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60))
    #expect(ledger.admit("k", digest: "d", now: now) == .proceed)
    #expect(ledger.admit("k", digest: "d", now: now) == .inUse)
    #expect(ledger.admit("k", digest: "other", now: now) == .reused)
    let given = answer("k", at: now)
    ledger.record("k", answer: given)
    #expect(ledger.admit("k", digest: "d", now: now) == .inUse)
    ledger.finish("k")
    #expect(ledger.admit("k", digest: "d", now: now) == .replay(given))
    #expect(ledger.admit("k", digest: "other", now: now) == .reused)
  }

  @Test func aRequestThatAppliedNothingLeavesNoTrace() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60))
    #expect(ledger.admit("k", digest: "d", now: now) == .proceed)
    ledger.abandon("k")
    #expect(ledger.admit("k", digest: "other", now: now) == .proceed)
    #expect(ledger.unsavedAnswers(through: .max).isEmpty)
  }

  @Test func answersAreKeptForTheirLifetimeWithinTheBound() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60), maxAnswers: 1000)
    for index in 0..<1000 {
      let key = "k\(index)"
      let at = now.addingTimeInterval(Double(index) / 100)
      #expect(ledger.admit(key, digest: "d", now: at) == .proceed)
      ledger.record(key, answer: answer(key, at: at))
      ledger.finish(key)
    }
    // The first of a thousand is still replayed within its lifetime...
    #expect(ledger.admit("k0", digest: "d", now: now.addingTimeInterval(59)) == .replay(answer("k0", at: now)))
    // ...and forgotten after it, while later ones stay.
    #expect(ledger.admit("k0", digest: "d", now: now.addingTimeInterval(60.505)) == .proceed)
    #expect(ledger.count == 1000 - 51)
    #expect(ledger.admit("k999", digest: "d", now: now.addingTimeInterval(61)) != .proceed)
  }

  @Test func aSaveCarriesTheAnswersNotYetSavedThatItsStateBacksUp() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60))
    for (key, version) in [("a", 3), ("b", 5)] {
      _ = ledger.admit(key, digest: "d", now: now)
      ledger.record(key, answer: answer(key, version: version, at: now))
      ledger.finish(key)
    }
    #expect(ledger.unsavedAnswers(through: 4).map(\.key) == ["a"])
    #expect(ledger.unsavedAnswers(through: 5).map(\.key) == ["a", "b"])
    ledger.didSave(through: 4)
    #expect(ledger.unsavedAnswers(through: 5).map(\.key) == ["b"])
    // Saved answers are still replayed.
    #expect(ledger.admit("a", digest: "d", now: now) == .replay(answer("a", version: 3, at: now)))
  }

  @Test func aLaterAnswerToTheSameKeyReplacesTheRecordedOne() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60))
    _ = ledger.admit("k", digest: "d", now: now)
    ledger.record("k", answer: answer("k", version: 2, at: now))
    ledger.record("k", answer: answer("k", version: 7, at: now))
    ledger.finish("k")
    #expect(ledger.unsavedAnswers(through: .max) == [answer("k", version: 7, at: now)])
    #expect(ledger.admit("k", digest: "d", now: now) == .replay(answer("k", version: 7, at: now)))
  }

  @Test func restoredAnswersReplayAndAreNotSavedAgainUnlessExpired() {
    let old = answer("old", at: now.addingTimeInterval(-120))
    let recent = answer("recent", version: 5, at: now.addingTimeInterval(-30))
    var ledger = IdempotencyLedger(lifetime: .seconds(60), restored: [recent, old], now: now)
    #expect(ledger.count == 1)
    #expect(ledger.unsavedAnswers(through: .max).isEmpty)
    #expect(ledger.admit("recent", digest: "d", now: now) == .replay(recent))
    #expect(ledger.admit("old", digest: "d", now: now) == .proceed)
  }

  @Test func aSessionKeepsOnlyItsNewestAnswers() {
    var ledger = IdempotencyLedger(lifetime: .seconds(86_400), maxAnswers: 3)
    for index in 0..<10_000 {
      let key = "k\(index)"
      #expect(ledger.admit(key, digest: "d", now: now) == .proceed)
      ledger.record(key, answer: answer(key, version: index, at: now))
      ledger.finish(key)
    }
    #expect(ledger.count == 3)
    for index in 9_997..<10_000 {
      #expect(ledger.admit("k\(index)", digest: "d", now: now) == .replay(answer("k\(index)", version: index, at: now)))
    }
    #expect(ledger.admit("k9996", digest: "d", now: now) == .proceed)
  }

  @Test func anAnswerGivenAgainCountsOnceTowardsTheBound() {
    var ledger = IdempotencyLedger(lifetime: .seconds(60), maxAnswers: 2)
    for (key, version) in [("a", 1), ("b", 2), ("b", 3)] {
      _ = ledger.admit(key, digest: "d", now: now)
      ledger.record(key, answer: answer(key, version: version, at: now))
      ledger.finish(key)
    }
    #expect(ledger.admit("b", digest: "d", now: now) == .replay(answer("b", version: 3, at: now)))
    #expect(ledger.count <= 2)
  }

  @Test func restoredAnswersAreBoundedToTheNewest() {
    let restored = (0..<5).map { answer("k\($0)", version: $0, at: now.addingTimeInterval(Double($0))) }
    var ledger = IdempotencyLedger(lifetime: .seconds(60), maxAnswers: 2, restored: restored.shuffled(), now: now)
    #expect(ledger.count == 2)
    #expect(ledger.admit("k4", digest: "d", now: now) == .replay(restored[4]))
    #expect(ledger.admit("k2", digest: "d", now: now) == .proceed)
  }
}
