import Dispatch

/// The main-queue scheduler of TCA features written before clocks, on a clock: Linux has no
/// Combine, so its schedulers are not here, but `@Dependency(\.mainQueue)` with
/// `mainQueue.sleep(for:)`, `mainQueue.timer(interval:)` and
/// `.debounce(id:for:scheduler:)` port as they are. Its strides are durations.
///
/// In tests: `$0.mainQueue = .immediate`, or `let mainQueue = DispatchQueue.test`,
/// `$0.mainQueue = mainQueue.eraseToAnyScheduler()`, `await mainQueue.advance(by: .seconds(1))`.
/// New code uses a clock: `@Dependency(\.continuousClock)`.
public struct ClockScheduler: Sendable {
  /// The clock the scheduler's time is read from.
  public let clock: any Clock<Duration>

  public init(_ clock: some Clock<Duration>) {
    self.clock = clock
  }

  /// Runs on the machine's continuous clock.
  public static var main: Self { Self(ContinuousClock()) }
  /// Runs every wait at once.
  public static var immediate: Self { Self(ImmediateClock()) }
  /// Reports an issue whenever it is used (the test value of `mainQueue`).
  public static var unimplemented: Self { Self(UnimplementedClock(name: "@Dependency(\\.mainQueue)")) }

  /// Waits for `stride` on the clock.
  public func sleep(for stride: SchedulerStride) async throws {
    try await clock.sleep(for: stride.duration)
  }

  /// A tick every `interval`, until the iterating task is cancelled.
  public func timer(interval: SchedulerStride) -> ClockTimer {
    clock.timer(interval: interval.duration)
  }
}

/// The scheduler type TCA features name, `AnySchedulerOf<DispatchQueue>`: here a
/// ``ClockScheduler`` whatever the queue type.
public typealias AnySchedulerOf<Scheduler> = ClockScheduler

/// A span of a scheduler's time: `.seconds(0.3)`, `.milliseconds(300)`, or seconds as a literal (`1`, `0.3`).
public struct SchedulerStride: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  public let duration: Duration

  public init(_ duration: Duration) { self.duration = duration }
  public init(integerLiteral seconds: Int) { self.duration = .seconds(seconds) }
  public init(floatLiteral seconds: Double) { self.duration = .seconds(seconds) }

  public static func seconds(_ seconds: Double) -> Self { Self(.seconds(seconds)) }
  public static func seconds(_ seconds: Int) -> Self { Self(.seconds(seconds)) }
  public static func milliseconds(_ milliseconds: Int) -> Self { Self(.milliseconds(milliseconds)) }
  public static func microseconds(_ microseconds: Int) -> Self { Self(.microseconds(microseconds)) }
  public static func nanoseconds(_ nanoseconds: Int) -> Self { Self(.nanoseconds(nanoseconds)) }
  public static var zero: Self { Self(.zero) }
}

/// A scheduler whose time moves only when the test moves it: `DispatchQueue.test`.
public final class TestClockScheduler: Sendable {
  /// The test clock underneath.
  public let clock = TestClock()

  public init() {}

  /// This scheduler, for `$0.mainQueue = mainQueue.eraseToAnyScheduler()`.
  public func eraseToAnyScheduler() -> ClockScheduler { ClockScheduler(clock) }

  /// Moves time forward by `stride`, running what was waiting until then.
  public func advance(by stride: SchedulerStride = .zero) async {
    await clock.advance(by: stride.duration)
  }

  /// Runs until nothing is waiting.
  public func run() async {
    await clock.run()
  }
}

/// `TestSchedulerOf<DispatchQueue>`, as TCA tests name it.
public typealias TestSchedulerOf<Scheduler> = TestClockScheduler

extension DispatchQueue {
  /// A scheduler for tests whose time moves when the test moves it.
  public static var test: TestClockScheduler { TestClockScheduler() }
}

extension DependencyValues {
  /// The main-queue scheduler of TCA features written before clocks; see ``ClockScheduler``.
  public var mainQueue: ClockScheduler {
    get { self[MainQueueKey.self] }
    set { self[MainQueueKey.self] = newValue }
  }
}

private enum MainQueueKey: DependencyKey {
  static let liveValue = ClockScheduler.main
  static var testValue: ClockScheduler { .unimplemented }
}

extension Effect {
  /// `debounce(id:for:clock:)` on a scheduler: `.debounce(id: CancelID.search, for: 0.3, scheduler: mainQueue)`.
  public func debounce(id: some Hashable & Sendable, for stride: SchedulerStride, scheduler: ClockScheduler) -> Self {
    debounce(id: id, for: stride.duration, clock: scheduler.clock)
  }

  /// `throttle(id:for:clock:latest:)` on a scheduler.
  public func throttle(
    id: some Hashable & Sendable, for stride: SchedulerStride, scheduler: ClockScheduler, latest: Bool
  ) -> Self {
    throttle(id: id, for: stride.duration, clock: scheduler.clock, latest: latest)
  }
}
