/// An instant of ``TestClock`` or ``ImmediateClock``: a duration since the clock's start.
public struct ClockInstant: InstantProtocol, Hashable, Sendable {
  /// Time since the clock was created.
  public var offset: Duration

  public init(offset: Duration = .zero) { self.offset = offset }

  public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
  public func duration(to other: Self) -> Duration { other.offset - offset }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}
