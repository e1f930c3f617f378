import Testing

@testable import HTTP

@Suite struct BusyPollWindowTests {
  @Test func startsAtTheLimitAndStaysWhileWorkComesSoon() {
    var window = BusyPollWindow(limit: .microseconds(50))
    #expect(window.current == 50_000)
    for _ in 0..<10 { window.sleptBeforeWork(nanoseconds: 30_000) }
    #expect(window.current == 50_000)
  }

  @Test func workFarApartTurnsPollingOffAndQuickWorkBringsItBack() {
    var window = BusyPollWindow(limit: .microseconds(64))
    window.sleptBeforeWork(nanoseconds: 10_000_000)
    #expect(window.current == 32_000)
    for _ in 0..<4 { window.sleptBeforeWork(nanoseconds: 10_000_000) }
    #expect(window.current == 0)
    window.sleptBeforeWork(nanoseconds: 20_000)
    #expect(window.current == 8_000)
    window.sleptBeforeWork(nanoseconds: 20_000)
    window.sleptBeforeWork(nanoseconds: 20_000)
    window.sleptBeforeWork(nanoseconds: 20_000)
    #expect(window.current == 64_000)
  }

  @Test func zeroNeverPolls() {
    var window = BusyPollWindow(limit: .zero)
    window.sleptBeforeWork(nanoseconds: 1_000)
    #expect(window.current == 0)
  }
}
