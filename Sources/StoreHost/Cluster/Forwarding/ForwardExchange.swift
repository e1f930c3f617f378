import HTTP
import Synchronization

/// One forwarded request on its way: the forwarding thread hands its outcome here, and the
/// request's task waits for it a little at a time, so it can look at the owner meanwhile and
/// give up on one that hangs (``abandon()`` shuts the connection, which frees the thread).
final class ForwardExchange: Sendable {
  /// How long a request waits for its owner's answer before it checks that the owner still
  /// holds its lease.
  static let patience: Duration = .milliseconds(500)
  /// How long it then waits between checks.
  static let checkInterval: Duration = .milliseconds(250)

  private struct State {
    var outcome: Result<Response, ForwardingFailure>?
    var waiter: (id: UInt64, continuation: CheckedContinuation<Result<Response, ForwardingFailure>?, Never>)?
    var nextWaiter: UInt64 = 0
    var connection: ForwardingConnection?
    var isAbandoned = false
  }

  private let state = Mutex(State())

  var isAbandoned: Bool { state.withLock { $0.isAbandoned } }

  /// The outcome, once the owner answered or the forward failed, or `nil` after `timeout`
  /// without either.
  func answer(within timeout: Duration) async -> Result<Response, ForwardingFailure>? {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    let timer = Task { [self] in
      try? await Task.sleep(for: timeout)
      let waiter = state.withLock { state in
        defer { if state.waiter?.id == id { state.waiter = nil } }
        return state.waiter?.id == id ? state.waiter : nil
      }
      waiter?.continuation.resume(returning: nil)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let outcome = state.withLock { state -> Result<Response, ForwardingFailure>? in
        if let outcome = state.outcome { return outcome }
        state.waiter = (id, continuation)
        return nil
      }
      if let outcome { continuation.resume(returning: outcome) }
    }
  }

  /// Gives the forward up: its connection is shut (the owner's answer, if any, is never
  /// read) and its outcome no longer matters.
  func abandon() {
    state.withLock { state in
      state.isAbandoned = true
      state.connection?.shutDown()
    }
  }

  /// Called by the forwarding thread with the outcome.
  func finish(_ outcome: Result<Response, ForwardingFailure>) {
    let waiter = state.withLock { state in
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.continuation.resume(returning: outcome)
  }

  /// Called by the forwarding thread before it writes the request on `connection`.
  /// - Returns: `false` when the forward was abandoned already.
  func attach(_ connection: ForwardingConnection) -> Bool {
    state.withLock { state in
      guard !state.isAbandoned else { return false }
      state.connection = connection
      return true
    }
  }

  /// Called by the forwarding thread once it is done with the connection, before it may
  /// use it for another request.
  func detach() {
    state.withLock { $0.connection = nil }
  }
}
