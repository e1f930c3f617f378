import Foundation

/// Runs blocking work (socket reads, child processes) on a thread of its own, so it never
/// ties up the few cooperative threads the server's handlers need (nor Dispatch's pool,
/// which on Linux is only as wide as the machine).
func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Sleeps the calling (non-cooperative) thread.
func sleepBlocking(milliseconds: Int) { usleep(useconds_t(milliseconds * 1000)) }
