import Synchronization

/// The writing end of one Server-Sent Events response, handed to the closure of
/// ``Response/eventStream(_:)``. Every event is queued on the connection and flushed at
/// once. Safe to use from any task.
///
/// Each stream has a bound on bytes queued but not yet accepted by the client's socket
/// (``ServerConfiguration/eventStreamBufferLimit``). A send that would pass it is refused
/// with ``SendResult/backpressure`` and nothing grows; ``sendLatest(event:id:data:)``
/// instead keeps the event in a single "latest wins" slot written when the client catches
/// up. A client that stays stalled for ``ServerConfiguration/eventStreamStallTimeout`` is
/// disconnected.
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
    var pending: [UInt8]?
    var stalledSince: ContinuousClock.Instant?
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  /// The bound on queued, unsent bytes.
  public let bufferLimit: Int
  private let state = Mutex(State())
  private let buffered = Atomic<Int>(0)
  private let peak = Atomic<Int>(0)
  private let sink: @Sendable ([UInt8]) -> Void

  /// A stream whose frames go to `sink` (the connection, on its event loop).
  init(bufferLimit: Int, sink: @escaping @Sendable ([UInt8]) -> Void) {
    self.bufferLimit = bufferLimit
    self.sink = sink
  }

  /// Bytes queued for this client and not yet accepted by its socket.
  public var bufferedBytes: Int { buffered.load(ordering: .relaxed) }

  /// The most bytes ever queued at once; never above ``bufferLimit``.
  public var peakBufferedBytes: Int { peak.load(ordering: .relaxed) }

  /// Whether the stream has ended; further sends return ``SendResult/closed``.
  public var isClosed: Bool { state.withLock { $0.closed } }

  /// Sends one event. `data` may span lines; each becomes a `data:` line. Refused with
  /// ``SendResult/backpressure`` while the client is behind, including while a
  /// ``sendLatest(event:id:data:)`` event is pending (so events never overtake it).
  @discardableResult
  public func send(event: String? = nil, id: String? = nil, data: String) -> SendResult {
    enqueue(EventFrame.event(event: event, id: id, data: data))
  }

  /// Sends an event, or if the client is behind keeps it as the one pending event,
  /// replacing any older pending one ("latest wins").
  @discardableResult
  public func sendLatest(event: String? = nil, id: String? = nil, data: String) -> SendResult {
    enqueue(EventFrame.event(event: event, id: id, data: data), keepingIfFull: true)
  }

  /// Sends a comment line (`: text`), which clients ignore; useful as a keep-alive.
  @discardableResult
  public func comment(_ text: String) -> SendResult { enqueue(EventFrame.comment(text)) }

  /// Tells the client how long to wait before reconnecting.
  @discardableResult
  public func retry(milliseconds: Int) -> SendResult { enqueue(Array("retry: \(milliseconds)\n\n".utf8)) }

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

  private func enqueue(_ frame: [UInt8], keepingIfFull: Bool = false) -> SendResult {
    state.withLock { state -> SendResult in
      if state.closed { return .closed }
      if frame.count > bufferLimit { return .tooLarge }
      let queued = buffered.load(ordering: .relaxed)
      if queued + frame.count > bufferLimit || (state.pending != nil && !keepingIfFull) {
        if state.stalledSince == nil { state.stalledSince = .now }
        guard keepingIfFull else { return .backpressure }
        state.pending = frame
        return .coalesced
      }
      if keepingIfFull { state.pending = nil }
      queue(frame)
      return .sent
    }
  }

  // MARK: Called by the connection on its event loop

  /// The socket accepted `count` queued bytes. Once all are out, the pending latest event
  /// (if any) is sent and the stall clock stops.
  func didWrite(_ count: Int) {
    guard buffered.subtract(count, ordering: .relaxed).newValue == 0 else { return }
    state.withLock { state in
      state.stalledSince = nil
      guard !state.closed, let frame = state.pending else { return }
      // Checked under the lock, like every other increase, so the bound always holds.
      guard buffered.load(ordering: .relaxed) + frame.count <= bufferLimit else { return }
      state.pending = nil
      queue(frame)
    }
  }

  /// Counts `frame` as buffered and hands it to the connection. Call with the lock held.
  private func queue(_ frame: [UInt8]) {
    let total = buffered.add(frame.count, ordering: .relaxed).newValue
    if total > peak.load(ordering: .relaxed) { peak.store(total, ordering: .relaxed) }
    sink(frame)
  }

  /// Since when the client has been too slow, or `nil` if it keeps up.
  var stalledSince: ContinuousClock.Instant? { state.withLock { $0.stalledSince } }

  /// Ends the stream and wakes everything waiting for that.
  func markClosed() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.closed = true
      state.pending = nil
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
