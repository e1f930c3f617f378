#if !canImport(Darwin)
  /// Nanoseconds in a second, as Darwin's Dispatch declares it: `Task.sleep(nanoseconds: NSEC_PER_SEC / 2)`.
  public let NSEC_PER_SEC: UInt64 = 1_000_000_000
  /// Nanoseconds in a millisecond, as Darwin's Dispatch declares it.
  public let NSEC_PER_MSEC: UInt64 = 1_000_000
  /// Microseconds in a second, as Darwin's Dispatch declares it.
  public let USEC_PER_SEC: UInt64 = 1_000_000
  /// Nanoseconds in a microsecond, as Darwin's Dispatch declares it.
  public let NSEC_PER_USEC: UInt64 = 1_000
#endif
