import Synchronization

/// A clock that moves only when the test says so: `await clock.advance(by: .seconds(1))`.
///
/// Sleepers wake in deadline order as time is advanced past their deadlines, so a test can
/// drive timers, debounces and timeouts step by step. Each woken sleeper gets the chance to
/// run, and to sleep again (a timer's next tick), before time moves on; so a timer
/// ticks once per interval however far the clock is advanced at once.
///
/// Generic over its duration as TCA's is (`TestClock<Duration>`); `TestClock()` measures in
/// `Swift.Duration`, the only duration it supports.
public final class TestClock<Duration: DurationProtocol & Hashable>: Sendable {

  private struct Sleeper {
    let id: UInt64
    let deadline: ClockInstant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now = ClockInstant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// How many sleeps have started: tells `advance` that a woken task slept again.
    var sleepCount: UInt64 = 0
  }

  private let timeline: Mutex<Timeline>

  private init(timeline: Timeline) { self.timeline = Mutex(timeline) }
}

extension TestClock where Duration == Swift.Duration {
  /// A test clock at its start, measuring in `Swift.Duration`.
  public convenience init() { self.init(timeline: Timeline()) }
}

extension TestClock: Clock where Duration == Swift.Duration {
  public typealias Instant = ClockInstant

  public var now: Instant { timeline.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = timeline.withLock { timeline in
      defer { timeline.nextID += 1 }
      return timeline.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow: Bool = timeline.withLock { timeline in
          // A deadline of now waits for the next `advance`, as in TCA's TestClock.
          if Task.isCancelled || deadline < timeline.now { return true }
          timeline.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          timeline.sleepCount += 1
          return false
        }
        if resumeNow {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let sleeper = timeline.withLock { timeline -> Sleeper? in
        guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline passes, earliest
  /// first, and giving woken tasks a chance to run (and sleep again) before going on.
  public func advance(by duration: Duration = .zero) async {
    let target = now.advanced(by: duration)
    await advance(to: target)
  }

  /// Moves time forward to `deadline`; see ``advance(by:)``.
  public func advance(to deadline: Instant) async {
    await settle()
    while true {
      let due: (sleeper: Sleeper, sleepCount: UInt64)? = timeline.withLock { timeline in
        guard
          let index = timeline.sleepers.indices.min(by: {
            timeline.sleepers[$0].deadline < timeline.sleepers[$1].deadline
          }),
          timeline.sleepers[index].deadline <= deadline
        else { return nil }
        let sleeper = timeline.sleepers.remove(at: index)
        timeline.now = max(timeline.now, sleeper.deadline)
        return (sleeper, timeline.sleepCount)
      }
      guard let due else { break }
      due.sleeper.continuation.resume()
      await waitForNextSleep(after: due.sleepCount)
    }
    timeline.withLock { $0.now = max($0.now, deadline) }
    await settle()
  }

  /// Advances until no sleeper is left.
  ///
  /// With a `timeout`, stops once the clock has gone that far (a timer that never ends), and
  /// reports an issue when sleepers remain.
  public func run(
    timeout: Duration? = nil, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let limit = timeout.map(now.advanced(by:))
    while let next = timeline.withLock({ $0.sleepers.map(\.deadline).min() }) {
      if let limit, next > limit {
        await advance(to: limit)
        reportIssue(
          "The test clock ran for \(timeout!) and tasks are still sleeping on it.",
          fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      await advance(to: next)
    }
  }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  /// Yields repeatedly so that tasks woken by this clock run until they block again.
  private func settle() async {
    for _ in 0..<200 { await Task.yield() }
  }

  /// Lets a woken task run until it sleeps on this clock again, or for at most 20 ms of real
  /// time when it does not (it finished, or waits on something else): time must not move
  /// on while it is about to read `now` for its next sleep.
  private func waitForNextSleep(after sleepCount: UInt64) async {
    func sleptAgain() -> Bool { timeline.withLock { $0.sleepCount > sleepCount } }
    for _ in 0..<200 {
      if sleptAgain() { return await settle() }
      await Task.yield()
    }
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .milliseconds(20))
    while clock.now < end {
      if sleptAgain() { return await settle() }
      try? await Task.sleep(for: .microseconds(200))
    }
  }
}
