import Synchronization

/// Whether this process holds its liveness lock: a session-level PostgreSQL advisory lock
/// on the listener's connection, which the database releases the moment that connection
/// dies. Another process that finds the lock free knows this one is gone and takes its
/// sessions over at once, instead of waiting for its heartbeat to age past the lease; a
/// process that is only slow (paused, busy) keeps its connection, so it keeps its lock and
/// its sessions.
final class ProcessLiveness: Sendable {
  let processID: String
  private let held = Mutex<(isHeld: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
  /// Called on the listener's thread when the lock was taken (`true`) or lost (`false`).
  private let onChange: Mutex<(@Sendable (Bool) -> Void)?> = Mutex(nil)

  init(processID: String) {
    self.processID = processID
  }

  /// Calls `action` each time the lock is taken (`true`) or lost (`false`), and at once
  /// when it is held already.
  func whenChanged(_ action: @escaping @Sendable (Bool) -> Void) {
    onChange.withLock { $0 = action }
    if held.withLock({ $0.isHeld }) { action(true) }
  }

  /// Takes the lock on `connection` (the listener's, just connected), waiting while an
  /// earlier connection of this process still holds it.
  func acquire(on connection: PostgresConnection) throws(PostgresError) {
    try connection.execute(
      "SELECT pg_advisory_lock(\(PostgresSchema.livenessLockSpace), hashtext($1))", [processID])
    let waiters = held.withLock { held in
      held.isHeld = true
      defer { held.waiters = [] }
      return held.waiters
    }
    onChange.withLock { $0 }?(true)
    for waiter in waiters { waiter.resume() }
  }

  /// The lock's connection broke: the database released the lock.
  func lost() {
    let wasHeld = held.withLock { held in
      defer { held.isHeld = false }
      return held.isHeld
    }
    if wasHeld { onChange.withLock { $0 }?(false) }
  }

  /// Returns once the lock is held.
  func waitUntilHeld() async {
    await withCheckedContinuation { continuation in
      let isHeld = held.withLock { held in
        if !held.isHeld { held.waiters.append(continuation) }
        return held.isHeld
      }
      if isHeld { continuation.resume() }
    }
  }
}
