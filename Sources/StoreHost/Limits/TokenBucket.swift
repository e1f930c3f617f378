/// A token bucket: up to `burst` actions at once, refilled at `ratePerSecond`. Pure: the
/// caller passes the current instant, so tests drive it without waiting.
///
/// ```swift
/// var bucket = TokenBucket(ratePerSecond: 20, burst: 40, now: ContinuousClock.now)
/// switch bucket.take(3, at: ContinuousClock.now) {
/// case .allowed: ...
/// case .limited(let retryAfter): ...  // 429 with Retry-After
/// }
/// ```
public struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  /// Whether a request may proceed.
  public enum Decision: Equatable, Sendable {
    case allowed
    /// Not now. `retryAfter` is how long until enough tokens have refilled, or `nil` when the
    /// request is larger than the whole bucket and can never pass.
    case limited(retryAfter: Duration?)
  }

  public let ratePerSecond: Double
  public let burst: Int
  private var tokens: Double
  private var refilledAt: Instant

  /// A full bucket.
  public init(ratePerSecond: Double, burst: Int, now: Instant) {
    precondition(ratePerSecond >= 0 && burst > 0, "a token bucket needs a non-negative rate and a positive burst")
    self.ratePerSecond = ratePerSecond
    self.burst = burst
    self.tokens = Double(burst)
    self.refilledAt = now
  }

  /// A full bucket with a session's ``SessionLimits/actionsPerSecond`` and ``SessionLimits/actionBurst``.
  public init(limits: SessionLimits, now: Instant) {
    self.init(ratePerSecond: limits.actionsPerSecond, burst: limits.actionBurst, now: now)
  }

  /// Takes `count` tokens when the bucket holds them; otherwise takes none.
  public mutating func take(_ count: Int = 1, at now: Instant) -> Decision {
    refill(at: now)
    let needed = Double(count)
    if needed <= tokens {
      tokens -= needed
      return .allowed
    }
    guard count <= burst, ratePerSecond > 0 else { return .limited(retryAfter: nil) }
    return .limited(retryAfter: .seconds((needed - tokens) / ratePerSecond))
  }

  /// The tokens available at `now`.
  public mutating func available(at now: Instant) -> Double {
    refill(at: now)
    return tokens
  }

  private mutating func refill(at now: Instant) {
    // An instant earlier than the last refill (a clock that went back) adds nothing.
    guard now > refilledAt else { return }
    let elapsed = refilledAt.duration(to: now)
    tokens = min(Double(burst), tokens + elapsed.secondsValue * ratePerSecond)
    refilledAt = now
  }
}
