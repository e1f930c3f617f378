/// The life of one connection as a pure state machine: bytes, timer ticks and finished
/// responses go in; what the I/O shell must do comes out. No sockets, no clocks of its own,
/// so every rule (pipelining in order, keep-alive, timeouts, 100-continue, draining) is
/// tested directly.
struct ConnectionStateMachine {
  /// What the shell must do, in order.
  enum Action: Equatable {
    /// Run the handler for this complete request; call ``responseFinished(keepAlive:now:)``
    /// when its response is queued (or its stream has ended).
    case dispatch(RequestHead, body: [UInt8])
    /// Write these bytes now (an interim `100 Continue`).
    case write([UInt8])
    /// Answer this error with `Connection: close`, then close.
    case fail(HTTPParseError)
    /// Close once queued output is flushed.
    case close
    /// Stop reading: too many pipelined bytes wait behind the request in flight.
    case pauseReading
    /// Read again.
    case resumeReading
  }

  private enum Phase {
    /// Between requests since this instant.
    case idle(since: MonotonicInstant)
    /// Part of a head has arrived; it started at this instant.
    case readingHead(since: MonotonicInstant)
    /// The head is in (`head`), since this instant; the body must follow within the body
    /// timeout.
    case readingBody(since: MonotonicInstant)
    /// A handler is answering; nothing more is read until it has.
    case responding
    /// Closing: nothing more happens.
    case closed
  }

  static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
  static let requestTimeout = HTTPParseError(
    status: 408, code: "request_timeout", message: "The request was not received in time.")

  private var parser: RequestParser
  /// The parser's limits: one copy per connection, as a connection with an open stream
  /// lives long and there may be tens of thousands.
  private var limits: HTTPLimits { parser.limits }
  private var phase: Phase
  /// The head of the request whose body is being read, kept apart from `phase` so that its
  /// payloads stay plain values: checking the phase copies it.
  private var head: RequestHead?
  private var body: [UInt8] = []
  private var inputClosed = false
  private var draining = false
  private var paused = false

  /// A new connection accepted at `now`.
  init(limits: HTTPLimits, now: MonotonicInstant) {
    parser = RequestParser(limits: limits)
    phase = .idle(since: now)
  }

  /// Bytes arrived.
  mutating func received(_ bytes: some Sequence<UInt8>, now: MonotonicInstant) -> [Action] {
    if case .closed = phase { return [] }
    parser.append(bytes)
    if case .responding = phase {
      if !paused && parser.bufferedByteCount > limits.maxHeadBytes + limits.maxBodyBytes {
        paused = true
        return [.pauseReading]
      }
      return []
    }
    return advance(now: now)
  }

  /// The peer closed its sending side (or the socket failed for reading).
  mutating func inputEnded(now: MonotonicInstant) -> [Action] {
    inputClosed = true
    switch phase {
    case .responding, .closed: return []
    default: break
    }
    return advance(now: now)
  }

  /// The response to the dispatched request is queued. `keepAlive` is false when the
  /// request or response asked to close, or the response was a stream.
  mutating func responseFinished(keepAlive: Bool, now: MonotonicInstant) -> [Action] {
    guard case .responding = phase else { return [] }
    if !keepAlive || draining {
      phase = .closed
      return [.close]
    }
    phase = .idle(since: now)
    guard paused else { return advance(now: now) }
    paused = false
    return [.resumeReading] + advance(now: now)
  }

  /// The response is a long one (an event stream) during which nothing more is read: frees
  /// the input buffer if it holds nothing.
  mutating func releaseInputBuffer() {
    parser.releaseBufferIfEmpty()
  }

  /// Time passed: enforce the idle timeout and the head and body deadlines.
  mutating func tick(now: MonotonicInstant) -> [Action] {
    switch phase {
    case .idle(let since) where now - since >= limits.idleTimeout:
      phase = .closed
      return [.close]
    case .readingHead(let since) where now - since >= limits.requestHeadTimeout:
      phase = .closed
      return [.fail(Self.requestTimeout)]
    case .readingBody(let since) where now - since >= limits.requestBodyTimeout:
      phase = .closed
      return [.fail(Self.requestTimeout)]
    default:
      return []
    }
  }

  /// The server is shutting down: close now if idle, otherwise after the current response.
  mutating func startDraining() -> [Action] {
    draining = true
    if case .idle = phase {
      phase = .closed
      return [.close]
    }
    return []
  }

  /// Pulls parts from the parser until a request is complete, more bytes are needed, or
  /// the input is bad.
  private mutating func advance(now: MonotonicInstant) -> [Action] {
    var actions: [Action] = []
    while true {
      let part: RequestParser.Part?
      do {
        part = try parser.next()
      } catch {
        phase = .closed
        actions.append(.fail(error))
        return actions
      }
      switch part {
      case .head(let head):
        if head.expectsContinue { actions.append(.write(Self.continueResponse)) }
        body = []
        self.head = head
        phase = .readingBody(since: now)
      case .body(let bytes):
        body.append(contentsOf: bytes)
      case .end:
        guard case .readingBody = phase, let head = head.take() else { return actions }
        phase = .responding
        actions.append(.dispatch(head, body: body))
        body = []
        return actions
      case nil:
        if case .idle = phase {
          if parser.bufferedByteCount > 0 {
            phase = .readingHead(since: now)
          } else if draining {
            phase = .closed
            actions.append(.close)
            return actions
          }
        }
        if inputClosed {
          // Whatever is left can never complete; with nothing to answer, close.
          phase = .closed
          actions.append(.close)
        }
        return actions
      }
    }
  }
}
