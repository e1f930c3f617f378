#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `operation` with every task's work on the main actor, one job at a time, in the order
/// the jobs were made ready: a test that sends an action sees its effect run up to its first
/// wait before the test goes on, and effects interleave the same way on every run.
///
/// ```swift
/// @Test func timer() async {
///   await withMainSerialExecutor {
///     let store = TestStore(initialState: Feature.State()) { Feature() }
///     await store.send(.startButtonTapped)
///     await clock.advance(by: .seconds(1))
///     await store.receive(\.tick) { $0.count = 1 }
///   }
/// }
/// ```
///
/// It applies to the whole process while `operation` runs, so tests that use it should not run
/// in parallel with each other (`@Suite(.serialized)`). Work that blocks a thread while
/// waiting for another task (a semaphore) would wait forever under it.
public func withMainSerialExecutor(
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Void
) async rethrows {
  let wasUsed = uncheckedUseMainSerialExecutor
  uncheckedUseMainSerialExecutor = true
  defer { uncheckedUseMainSerialExecutor = wasUsed }
  try await operation()
}

/// Runs synchronous `operation`, and the tasks it starts, with every task's work on the main
/// actor, one job at a time (see the async ``withMainSerialExecutor(isolation:operation:)``).
public func withMainSerialExecutor(operation: () throws -> Void) rethrows {
  let wasUsed = uncheckedUseMainSerialExecutor
  uncheckedUseMainSerialExecutor = true
  defer { uncheckedUseMainSerialExecutor = wasUsed }
  try operation()
}

/// Whether every task's work runs on the main actor, one job at a time, for the rest of the
/// process or until set back to `false`: `init() { uncheckedUseMainSerialExecutor = true }` in
/// a test suite. Prefer ``withMainSerialExecutor(isolation:operation:)``, which sets it back.
///
/// Work that is not isolated to an actor (an effect's `run`, `Task {}`, child tasks) normally
/// runs on a pool of threads, in parallel and in no fixed order. While this is `true`, the
/// Swift runtime hands it to the main actor's queue instead, so it runs interleaved with
/// `@MainActor` work, each job until its next suspension, first come first served. Jobs resumed
/// by a sleep on a real clock still start on the pool, and come back to the queue at their
/// next suspension.
public var uncheckedUseMainSerialExecutor: Bool {
  get { MainSerialExecutorHook.isInstalled }
  set { MainSerialExecutorHook.isInstalled = newValue }
}

/// The Swift runtime's hook for enqueuing work that is not isolated to an actor
/// (`swift_task_enqueueGlobal_hook`, in `libswift_Concurrency`): set, it is called instead of
/// the global executor with each job, and the original enqueuer.
private enum MainSerialExecutorHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  /// The hook variable, found once; `nil` where the runtime does not export it.
  nonisolated(unsafe) static let variable: UnsafeMutablePointer<Hook?>? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "swift_task_enqueueGlobal_hook") else { return nil }
    return symbol.assumingMemoryBound(to: Hook?.self)
  }()

  static var isInstalled: Bool {
    get { variable?.pointee != nil }
    set {
      guard let variable else {
        preconditionFailure("The Swift runtime does not export swift_task_enqueueGlobal_hook")
      }
      variable.pointee = newValue ? { job, _ in MainActor.shared.enqueue(job) } : nil
    }
  }
}
