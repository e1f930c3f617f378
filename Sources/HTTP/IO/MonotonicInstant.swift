import Glibc

/// A moment on the system's monotonic clock, as the event loops keep time: nanoseconds in a
/// plain integer. `ContinuousClock.Instant` keeps its layout private to the standard library,
/// so outside it every copy, comparison or sum of one goes through its type's metadata, and
/// an enum or optional holding one is laid out at run time; a connection reads and keeps the
/// time several times a request.
struct MonotonicInstant: Comparable, Hashable, Sendable {
  /// Nanoseconds since an unspecified start (the machine's boot).
  var nanoseconds: Int64

  /// Now (`CLOCK_MONOTONIC`).
  static var now: MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
  }

  static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

  /// The instant `duration` later; a duration too long to count in nanoseconds ends at the
  /// end of time.
  static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    instant.advanced(byNanoseconds: Int64(duration.nanosecondsValue))
  }

  /// The instant `nanoseconds` later, saturating at the end (or start) of time.
  func advanced(byNanoseconds nanoseconds: Int64) -> MonotonicInstant {
    let (sum, overflow) = self.nanoseconds.addingReportingOverflow(nanoseconds)
    return MonotonicInstant(nanoseconds: overflow ? (nanoseconds > 0 ? .max : .min) : sum)
  }

  /// The nanoseconds from `earlier` to this instant, for arithmetic that avoids `Duration`'s.
  func nanoseconds(since earlier: MonotonicInstant) -> Int64 {
    nanoseconds &- earlier.nanoseconds
  }

  /// The time from `earlier` to `later`.
  static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
    .nanoseconds(later.nanoseconds(since: earlier))
  }
}
