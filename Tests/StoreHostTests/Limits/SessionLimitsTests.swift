import Testing

@testable import StoreHost

@Suite struct SessionLimitsTests {
  @Test func defaultsAreTheDocumentedOnes() throws {
    let limits = SessionLimits()
    #expect(limits.maxSessions == 10_000)
    #expect(limits.idleTimeout == .seconds(1_800))
    #expect(limits.actionsPerSecond == 20)
    #expect(limits.actionBurst == 40)
    #expect(limits.maxActionBodyBytes == 65_536)
    #expect(limits.maxActionsPerBatch == 32)
    #expect(limits.maxEventStreamsPerSession == 8)
    #expect(limits.maxRunningEffectsPerSession == 64)
    #expect(limits.eventHistoryLength == 32)
    #expect(limits.maxIdempotencyAnswers == 256)
    #expect(limits.maxHistoryBytes == 4 << 20)
    try limits.validate()
  }

  @Test func rejectsNonPositiveFields() {
    var limits = SessionLimits()
    limits.maxSessions = 0
    #expect(throws: SessionLimitsError.outOfRange("maxSessions")) { try limits.validate() }
    limits = SessionLimits()
    limits.actionsPerSecond = .infinity
    #expect(throws: SessionLimitsError.outOfRange("actionsPerSecond")) { try limits.validate() }
  }

  @Test func rejectsABatchLargerThanTheBurst() {
    var limits = SessionLimits()
    limits.maxActionsPerBatch = 41
    #expect(throws: SessionLimitsError.batchExceedsBurst(batch: 41, burst: 40)) { try limits.validate() }
  }
}
