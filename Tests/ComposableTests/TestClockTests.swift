import Composable
import Testing

@Suite struct TestClockTests {
  @Test func aTestClockNamesItsDurationAsTCAsDoes() async {
    let clock: TestClock<Duration> = TestClock()
    let start = clock.now
    await clock.advance(by: .seconds(1))
    #expect(start.duration(to: clock.now) == .seconds(1))
  }
}
