import Synchronization

/// A clock whose sleeps return at once, moving its `now` forward: for tests that should not
/// wait for timers.
public final class ImmediateClock: Clock, Sendable {
  public typealias Instant = ClockInstant
  private let current = Mutex(ClockInstant())

  public init() {}

  public var now: Instant { current.withLock { $0 } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
  }
}
