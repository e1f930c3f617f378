import Testing

@testable import HTTP

@Suite struct BusyPollWindowTests {
  @Test func startsAtTheLimitAndStaysWhileWorkComesSoon() {
    var window = BusyPollWindow(limit: .microseconds(50))
    #expect(window.current == .microseconds(50))
    for _ in 0..<10 { window.sleptBeforeWork(.microseconds(30)) }
    #expect(window.current == .microseconds(50))
  }

  @Test func workFarApartTurnsPollingOffAndQuickWorkBringsItBack() {
    var window = BusyPollWindow(limit: .microseconds(64))
    window.sleptBeforeWork(.milliseconds(10))
    #expect(window.current == .microseconds(32))
    for _ in 0..<4 { window.sleptBeforeWork(.milliseconds(10)) }
    #expect(window.current == .zero)
    window.sleptBeforeWork(.microseconds(20))
    #expect(window.current == .microseconds(8))
    window.sleptBeforeWork(.microseconds(20))
    window.sleptBeforeWork(.microseconds(20))
    window.sleptBeforeWork(.microseconds(20))
    #expect(window.current == .microseconds(64))
  }

  @Test func zeroNeverPolls() {
    var window = BusyPollWindow(limit: .zero)
    window.sleptBeforeWork(.microseconds(1))
    #expect(window.current == .zero)
  }
}
