import Dispatch
import Synchronization

/// A one-time gate a test opens: handlers wait at it, so a test can hold a request in its
/// handler for as long as it needs, without timing.
final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
  private let semaphore = DispatchSemaphore(value: 0)

  /// Lets every waiter through, now and later.
  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
    semaphore.signal()
  }

  /// Suspends until the gate opens.
  func passed() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  /// Blocks the calling thread until the gate opens (for one such waiter).
  func blockUntilOpen() {
    semaphore.wait()
  }
}
