import Foundation
import Testing

@testable import StoreHost

@Suite struct IdempotencyLedgerTests {
  private let now = Date(timeIntervalSince1970: 1_700_000_000)

  private func answer(_ key: String, digest: String = "d", version: Int = 1, at: Date) -> RememberedAnswer {
    RememberedAnswer(key: key, bodyDigest: digest, status: 202, body: #"{"version":\#(version)}"#, version: version, answeredAt: at)
  }

  @Test func aKeyProceedsOnceThenReplaysItsAnswer() {
    var ledger = IdempotencyLedger(capacity: 8, lifetime: .seconds(60))
    #expect(ledger.admit("k", digest: "d", now: now) == .proceed)
    #expect(ledger.admit("k", digest: "d", now: now) == .inUse)
    #expect(ledger.admit("k", digest: "other", now: now) == .reused)
    let given = answer("k", at: now)
    ledger.finish("k", answer: given)
    #expect(ledger.admit("k", digest: "d", now: now) == .replay(given))
    #expect(ledger.admit("k", digest: "other", now: now) == .reused)
  }

  @Test func aRequestThatAppliedNothingLeavesNoTrace() {
    var ledger = IdempotencyLedger(capacity: 8, lifetime: .seconds(60))
    #expect(ledger.admit("k", digest: "d", now: now) == .proceed)
    ledger.finish("k", answer: nil)
    #expect(ledger.admit("k", digest: "other", now: now) == .proceed)
  }

  @Test func answersAreForgottenOldestFirstAndAfterTheirLifetime() {
    var ledger = IdempotencyLedger(capacity: 2, lifetime: .seconds(60))
    for key in ["a", "b", "c"] {
      _ = ledger.admit(key, digest: "d", now: now)
      ledger.finish(key, answer: answer(key, at: now))
    }
    #expect(ledger.answers.map(\.key) == ["b", "c"])
    #expect(ledger.admit("a", digest: "d", now: now) == .proceed)
    let later = now.addingTimeInterval(61)
    #expect(ledger.admit("c", digest: "d", now: later) == .proceed)
    #expect(ledger.answers.isEmpty)
  }

  @Test func aSaveCarriesOnlyAnswersItsStateBacksUp() {
    var ledger = IdempotencyLedger(
      capacity: 8, lifetime: .seconds(60), answers: [answer("a", version: 3, at: now), answer("b", version: 5, at: now)])
    #expect(ledger.answers(through: 4).map(\.key) == ["a"])
    #expect(ledger.answers(through: 5).map(\.key) == ["a", "b"])
    #expect(ledger.admit("b", digest: "d", now: now) == .replay(answer("b", version: 5, at: now)))
  }
}
