import Synchronization

/// Whether the effects of one `send` have all ended, watched from a task of its own.
final class EffectCompletion: Sendable {
  private let done = Mutex(false)

  init(watching task: StoreTask) {
    Task.detached { [self] in
      await task.finish()
      done.withLock { $0 = true }
    }
  }

  var isDone: Bool { done.withLock { $0 } }
}
