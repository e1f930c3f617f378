/// Runs tasks on one event loop's thread: the handlers its connections start run there,
/// between the loop's passes over its sockets, so a request is read, handled and answered
/// by one thread with no wake-up of another. A handler that awaits work elsewhere (a lock,
/// a database thread) is resumed on the loop when that work is done.
///
/// Handlers that block their thread or compute for long would hold up every connection of
/// the loop; routes for them run on the shared pool instead (``Router/Placement/sharedPool``).
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
  // The loop owns its executor and outlives every task it runs.
  private unowned(unsafe) let loop: EventLoop

  init(loop: EventLoop) {
    self.loop = loop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    loop.enqueue(UnownedJob(job))
  }

  /// Runs `job` now; called by the loop on its thread.
  func run(_ job: UnownedJob) {
    job.runSynchronously(on: asUnownedTaskExecutor())
  }
}
