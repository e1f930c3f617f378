import Testing

@testable import HTTP

/// The one conversion of a `Duration` to seconds, milliseconds and nanoseconds that the
/// server, the session host and the cluster share.
@Suite struct DurationUnitsTests {
  @Test func convertsToEachUnitRoundingWholeUnitsTowardsZero() {
    let duration = Duration.seconds(2) + .nanoseconds(1_500_999)
    #expect(duration.secondsValue == 2.001500999)
    #expect(duration.millisecondsValue == 2_001)
    #expect(duration.nanosecondsValue == 2_001_500_999)
    #expect(Duration.milliseconds(-1500).millisecondsValue == -1_500)
    #expect(Duration.zero.nanosecondsValue == 0)
  }
}
