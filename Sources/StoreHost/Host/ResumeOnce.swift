import Synchronization

/// Resumes a continuation once, whoever asks first.
final class ResumeOnce: Sendable {
  private let continuation: Mutex<CheckedContinuation<Void, Never>?>

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = Mutex(continuation)
  }

  func resume() {
    continuation.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }?.resume()
  }
}
