import Synchronization

/// The writing end of one Server-Sent Events response, handed to the closure of
/// ``Response/eventStream(_:)`` or ``Response/eventStream(onOpen:)``. Every event is queued
/// on the connection and flushed at once. Safe to use from any task.
///
/// Events are ``EventFrame``s: made once and written to every stream as they are, so an
/// event sent to many streams costs one frame and a reference per stream.
///
/// Each stream has a bound on bytes queued but not yet accepted by the client's socket
/// (``ServerConfiguration/eventStreamBufferLimit``). A send that would pass it is refused
/// with ``SendResult/backpressure`` and nothing grows; ``sendLatest(_:)`` instead keeps the
/// event in a "latest wins" slot written when the client catches up. A stream that carries
/// several independent sequences of events (one per session, say) keeps one such slot for
/// each (``sendLatest(_:slot:)``). A client that stays stalled for
/// ``ServerConfiguration/eventStreamStallTimeout`` is disconnected.
///
/// ```swift
/// router.get("/events") { _ in
///   .eventStream { stream in
///     for await state in states {
///       stream.sendLatest(event: "state", id: "\(state.version)", data: state.json)
///     }
///   }
/// }
/// ```
public final class EventStream: Sendable {
  /// What happened to an event handed to the stream.
  public enum SendResult: Sendable, Equatable {
    /// Queued for the client.
    case sent
    /// Not queued: the client is too far behind. Coalesce and try later.
    case backpressure
    /// Kept as the pending latest event, replacing an older pending one; written when the
    /// client catches up.
    case coalesced
    /// The stream is closed (client gone, handler done, or server draining).
    case closed
    /// Not queued: the event alone is larger than ``EventStream/bufferLimit`` and can never
    /// be sent; raise ``ServerConfiguration/eventStreamBufferLimit``.
    case tooLarge
  }

  private struct State {
    var closed = false
    /// The server asked to end the stream (``finish()``).
    var finishing = false
    /// The latest frame of each slot that did not fit, oldest first: at most one per slot.
    var pending: [(slot: Int, frame: EventFrame)] = []
    var stalledSince: MonotonicInstant?
    var waiters: [CheckedContinuation<Void, Never>] = []
    var closeHandlers: [@Sendable () -> Void] = []
    /// Frames queued for the connection and not yet taken by its event loop.
    var outbox: [EventFrame] = []
    /// The connection was asked to take the outbox and has not yet.
    var isScheduled = false
  }

  /// The bound on queued, unsent bytes.
  public let bufferLimit: Int
  private let state = Mutex(State())
  private let buffered = Atomic<Int>(0)
  private let peak = Atomic<Int>(0)
  /// Asks the connection's event loop to take the outbox soon.
  private let schedule: @Sendable () -> Void

  /// A stream whose frames the connection takes (``takeOutbox()``) after each `schedule`.
  init(bufferLimit: Int, schedule: @escaping @Sendable () -> Void) {
    self.bufferLimit = bufferLimit
    self.schedule = schedule
  }

  /// Bytes queued for this client and not yet accepted by its socket.
  public var bufferedBytes: Int { buffered.load(ordering: .relaxed) }

  /// The most bytes ever queued at once; never above ``bufferLimit``.
  public var peakBufferedBytes: Int { peak.load(ordering: .relaxed) }

  /// Whether the stream has ended; further sends return ``SendResult/closed``.
  public var isClosed: Bool { state.withLock { $0.closed } }

  /// Sends one frame. Refused with ``SendResult/backpressure`` while the client is behind,
  /// including while a ``sendLatest(_:)`` frame is pending (so events never overtake it).
  @discardableResult
  public func send(_ frame: EventFrame) -> SendResult {
    enqueue(frame, slot: nil)
  }

  /// Sends a frame, or if the client is behind keeps it as the one pending frame,
  /// replacing any older pending one ("latest wins").
  @discardableResult
  public func sendLatest(_ frame: EventFrame) -> SendResult {
    enqueue(frame, slot: 0)
  }

  /// Sends a frame, or if the client is behind keeps it as the pending frame of `slot`,
  /// replacing that slot's older pending frame: latest wins within a slot, and the slots'
  /// pending frames are written in the order they were first kept.
  @discardableResult
  public func sendLatest(_ frame: EventFrame, slot: Int) -> SendResult {
    enqueue(frame, slot: slot)
  }

  /// Sends one event. `data` may span lines; each becomes a `data:` line.
  @discardableResult
  public func send(event: String? = nil, id: String? = nil, data: String) -> SendResult {
    send(EventFrame(event: event, id: id, data: data))
  }

  /// Sends an event with ``sendLatest(_:)``.
  @discardableResult
  public func sendLatest(event: String? = nil, id: String? = nil, data: String) -> SendResult {
    sendLatest(EventFrame(event: event, id: id, data: data))
  }

  /// Sends a comment line (`: text`), which clients ignore; useful as a keep-alive.
  @discardableResult
  public func comment(_ text: String) -> SendResult { enqueue(.comment(text), slot: nil) }

  /// Tells the client how long to wait before reconnecting.
  @discardableResult
  public func retry(milliseconds: Int) -> SendResult { enqueue(.retry(milliseconds: milliseconds), slot: nil) }

  /// Suspends until the stream closes (the client went away, or the server is draining).
  public func waitUntilClosed() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        if state.closed { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Runs `handler` once when the stream closes, or at once if it has.
  public func onClose(_ handler: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      if state.closed { return true }
      state.closeHandlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  /// Ends the stream once what is queued is written; a stream opened with
  /// ``Response/eventStream(onOpen:)`` lasts until this or until the client leaves.
  public func finish() {
    let scheduleNow = state.withLock { state -> Bool in
      guard !state.closed, !state.finishing else { return false }
      state.finishing = true
      defer { state.isScheduled = true }
      return !state.isScheduled
    }
    if scheduleNow { schedule() }
  }

  /// Queues `frame`; a frame with a `slot` is kept as that slot's pending frame when it
  /// does not fit, one without is refused.
  private func enqueue(_ frame: EventFrame, slot: Int?) -> SendResult {
    let (result, scheduleNow) = state.withLock { state -> (SendResult, Bool) in
      if state.closed || state.finishing { return (.closed, false) }
      if frame.count > bufferLimit { return (.tooLarge, false) }
      let queued = buffered.load(ordering: .relaxed)
      if queued + frame.count > bufferLimit || (!state.pending.isEmpty && slot == nil) {
        if state.stalledSince == nil { state.stalledSince = .now }
        guard let slot else { return (.backpressure, false) }
        if let index = state.pending.firstIndex(where: { $0.slot == slot }) {
          state.pending[index].frame = frame
        } else {
          state.pending.append((slot, frame))
        }
        return (.coalesced, false)
      }
      if let slot { state.pending.removeAll { $0.slot == slot } }
      return (.sent, queue(frame, in: &state))
    }
    if scheduleNow { schedule() }
    return result
  }

  /// Counts `frame` as buffered and puts it in the outbox. Call with the lock held.
  /// - Returns: Whether the connection must be asked to take the outbox.
  private func queue(_ frame: EventFrame, in state: inout State) -> Bool {
    let total = buffered.add(frame.count, ordering: .relaxed).newValue
    if total > peak.load(ordering: .relaxed) { peak.store(total, ordering: .relaxed) }
    state.outbox.append(frame)
    defer { state.isScheduled = true }
    return !state.isScheduled
  }

  // MARK: Called by the connection on its event loop

  /// Moves the frames queued since the last call to the end of `frames`; returns whether
  /// the server asked to finish.
  func takeOutbox(into frames: inout [EventFrame]) -> Bool {
    state.withLock { state in
      state.isScheduled = false
      frames.append(contentsOf: state.outbox)
      state.outbox.removeAll(keepingCapacity: true)
      return state.finishing
    }
  }

  /// The socket accepted `count` queued bytes. Once all are out, the pending latest events
  /// (if any) are queued, as many as fit, and the stall clock stops.
  func didWrite(_ count: Int) {
    guard buffered.subtract(count, ordering: .relaxed).newValue == 0 else { return }
    let scheduleNow = state.withLock { state -> Bool in
      state.stalledSince = nil
      var scheduleNow = false
      // Checked under the lock, like every other increase, so the bound always holds.
      while !state.closed, let (_, frame) = state.pending.first,
        buffered.load(ordering: .relaxed) + frame.count <= bufferLimit
      {
        state.pending.removeFirst()
        scheduleNow = queue(frame, in: &state) || scheduleNow
      }
      return scheduleNow
    }
    if scheduleNow { schedule() }
  }

  /// Since when the client has been too slow, or `nil` if it keeps up.
  var stalledSince: MonotonicInstant? { state.withLock { $0.stalledSince } }

  /// Ends the stream and wakes everything waiting for that.
  func markClosed() {
    let (waiters, handlers) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
      guard !state.closed else { return ([], []) }
      state.closed = true
      state.pending = []
      state.outbox = []
      defer {
        state.waiters = []
        state.closeHandlers = []
      }
      return (state.waiters, state.closeHandlers)
    }
    for waiter in waiters { waiter.resume() }
    for handler in handlers { handler() }
  }
}
