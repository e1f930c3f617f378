extension DependencyValues {
  /// A clock that keeps running while the machine sleeps; for timers and timeouts.
  /// In tests, set a ``TestClock`` or ``ImmediateClock``.
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that pauses while the machine sleeps. In tests, set a ``TestClock`` or ``ImmediateClock``.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock(name: "@Dependency(\\.continuousClock)")
  }
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock(name: "@Dependency(\\.suspendingClock)")
  }
}

/// A clock that reports an issue whenever it is used, then behaves as an ``ImmediateClock``.
/// The test value of the clock dependencies.
public struct UnimplementedClock: Clock {
  public typealias Instant = ImmediateClock.Instant
  private let name: String
  private let base = ImmediateClock()

  public init(name: String = "UnimplementedClock") { self.name = name }

  public var now: Instant {
    reportIssue("\(name) has no test implementation, but was used in a test (now).")
    return base.now
  }

  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    reportIssue("\(name) has no test implementation, but was used in a test (sleep).")
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
