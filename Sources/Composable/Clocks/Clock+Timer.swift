import Synchronization

/// The instants of a clock, one every interval, as `Swift/Clock/timer(interval:)` makes them.
///
/// It sleeps in the task that iterates it, so cancelling that task (an effect torn down)
/// ends it, and a ``TestClock`` moves it on as it moves any sleep. Its element is an
/// existential so that `any Clock<Duration>` (`@Dependency(\.continuousClock)`) has it too.
public struct ClockTimer: AsyncSequence, Sendable {
  public typealias Element = any InstantProtocol<Duration>

  private let makeNext: @Sendable () -> @Sendable () async -> Element?

  init(makeNext: @escaping @Sendable () -> @Sendable () async -> Element?) {
    self.makeNext = makeNext
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(nextInstant: makeNext())
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    let nextInstant: @Sendable () async -> Element?

    public mutating func next() async -> Element? { await nextInstant() }
  }
}

extension Clock where Duration == Swift.Duration {
  /// An instant every `interval`, the first one `interval` from now, until the iterating
  /// task is cancelled: `for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }`.
  public func timer(interval: Duration) -> ClockTimer {
    ClockTimer { [self] in
      let deadline = Mutex(now.advanced(by: interval))
      return { [self] in
        let instant = deadline.withLock { $0 }
        do {
          try await sleep(until: instant, tolerance: nil)
        } catch {
          return nil
        }
        deadline.withLock { $0 = instant.advanced(by: interval) }
        return instant
      }
    }
  }
}
