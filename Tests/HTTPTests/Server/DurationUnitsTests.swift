import Testing

@testable import HTTP

/// The conversions of a `Duration` to seconds, milliseconds and nanoseconds that the
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

  @Test func countsNanosecondsUpToWhatAnIntHolds() {
    #expect((Duration.seconds(3) + .nanoseconds(7)).nanosecondsValue == 3_000_000_007)
    #expect(Duration.seconds(Int64.max).nanosecondsValue == .max)
    #expect(Duration.seconds(Int64.min).nanosecondsValue == .min)
    #expect(Duration.seconds(9_223_372_036).nanosecondsValue == 9_223_372_036_000_000_000)
  }

  /// The event loops' clock: sums saturate instead of trapping, so a timeout set far beyond
  /// any run (to mean "never") works.
  @Test func aMonotonicInstantAddsAndSubtractsDurations() {
    let start = MonotonicInstant(nanoseconds: 1_000)
    #expect(start + .nanoseconds(500) == MonotonicInstant(nanoseconds: 1_500))
    #expect(MonotonicInstant(nanoseconds: 4_000) - start == .nanoseconds(3_000))
    #expect(start + .seconds(Int64.max) == MonotonicInstant(nanoseconds: .max))
    #expect(start < start + .nanoseconds(1))
    let now = MonotonicInstant.now
    #expect(MonotonicInstant.now >= now)
  }
}
