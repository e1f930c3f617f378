extension Effect {
  /// Delays this effect by `duration` on `clock`, restarting the delay whenever another
  /// effect with the same `id` arrives first: only the last of a burst runs.
  ///
  /// ```swift
  /// case let .queryChanged(query):
  ///   state.query = query
  ///   return .run { send in await send(.search(query)) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  public func debounce<C: Clock>(
    id: some Hashable & Sendable, for duration: C.Duration, clock: C
  ) -> Self {
    if case .none = operation { return .none }
    return Effect.concatenate(.run { _ in try await clock.sleep(for: duration) }, self)
      .cancellable(id: id, cancelInFlight: true)
  }

  /// Lets this effect run at most once per `interval` on `clock` for the same `id`.
  ///
  /// The first effect of a burst runs at once; during the interval that follows, the
  /// latest (`latest: true`) or the first (`latest: false`) of the others runs when the
  /// interval ends, and the rest are dropped.
  public func throttle<C: Clock>(
    id: some Hashable & Sendable, for interval: C.Duration, clock: C, latest: Bool
  ) -> Self {
    if case .none = operation { return .none }
    return Self(.throttle(ThrottleWindow(id: id, interval: interval, clock: clock, latest: latest), self))
  }
}

extension Effect {
  /// ``debounce(id:for:clock:)`` on a clock held as `any Clock<Duration>`, such as
  /// `@Dependency(\.continuousClock)`: `.milliseconds(300)` is then read as a `Duration`
  /// wherever Foundation's `DispatchTimeInterval` is also in scope.
  @_disfavoredOverload
  public func debounce(id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>) -> Self {
    func debounce<C: Clock<Duration>>(on clock: C) -> Self { self.debounce(id: id, for: duration, clock: clock) }
    return debounce(on: clock)
  }

  /// ``throttle(id:for:clock:latest:)`` on a clock held as `any Clock<Duration>`.
  @_disfavoredOverload
  public func throttle(
    id: some Hashable & Sendable, for interval: Duration, clock: any Clock<Duration>, latest: Bool
  ) -> Self {
    func throttle<C: Clock<Duration>>(on clock: C) -> Self {
      self.throttle(id: id, for: interval, clock: clock, latest: latest)
    }
    return throttle(on: clock)
  }
}

/// A throttle's clock and rules, with the clock's type erased so a store can keep the time
/// of each id's last run.
struct ThrottleWindow: Sendable {
  var id: EffectID
  var pendingID: EffectID
  let latest: Bool
  /// The clock's current instant.
  let now: @Sendable () -> any Sendable
  /// Whether a run at `last` still closes the window at `now`.
  let isClosed: @Sendable (_ last: any Sendable, _ now: any Sendable) -> Bool
  /// The instant the window that opened at `last` ends.
  let end: @Sendable (_ last: any Sendable) -> any Sendable
  /// Sleeps until `instant`.
  let sleep: @Sendable (_ until: any Sendable) async throws -> Void

  init<C: Clock>(id: some Hashable & Sendable, interval: C.Duration, clock: C, latest: Bool) {
    self.id = EffectID(id)
    self.pendingID = EffectID(PendingThrottleID(id: EffectID(id)))
    self.latest = latest
    self.now = { clock.now }
    self.isClosed = { last, now in (now as! C.Instant) < (last as! C.Instant).advanced(by: interval) }
    self.end = { last in (last as! C.Instant).advanced(by: interval) }
    self.sleep = { instant in try await clock.sleep(until: instant as! C.Instant, tolerance: nil) }
  }
}

private struct PendingThrottleID: Hashable, Sendable {
  let id: EffectID
}
