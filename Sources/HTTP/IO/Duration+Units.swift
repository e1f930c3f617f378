extension Duration {
  /// The duration in seconds, fractional.
  package var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in whole milliseconds, rounded towards zero.
  package var millisecondsValue: Int {
    Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
  }

  /// The duration in whole nanoseconds, rounded towards zero, or `Int.max` / `.min` when it
  /// is longer than they count.
  package var nanosecondsValue: Int {
    let (seconds, attoseconds) = components
    let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds > 0 ? .max : .min }
    let (sum, overflowing) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
    return overflowing ? (seconds > 0 ? .max : .min) : sum
  }
}
