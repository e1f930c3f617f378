import Foundation
import StoreHost
import Synchronization

/// A few PostgreSQL connections, each owned by a dedicated thread, serving jobs from one
/// queue in arrival order. Blocking libpq calls therefore never hold a thread of Swift's
/// cooperative pool.
///
/// A thread connects lazily and reconnects when its connection broke (the database
/// restarted): a job that fails on a reused connection because it broke is retried once on a
/// fresh one. While the database is unreachable, jobs fail with a ``PostgresError`` whose
/// `isConnectionFailure` is `true`, after at most the connect timeout.
///
/// ```swift
/// let pool = PostgresPool(url: "postgres://storehost@127.0.0.1:5432/storehost", size: 4)
/// let rows = try await pool.run { try $0.execute("SELECT 1") }
/// ```
final class PostgresPool: Sendable {
  /// Connections per process by default: enough for a group of concurrent saves on a
  /// two-core machine without crowding the database's `max_connections` (100) when several
  /// processes share it.
  static let defaultSize = 4

  /// What a thread offers a job: a connection (and whether the job may ask for a fresh one
  /// when this one turns out broken), or why it could not connect.
  enum Attempt {
    case connection(PostgresConnection, mayRetry: Bool)
    case failed(any Error)
  }

  /// Returns `true` once it answered its caller, `false` to be run again on a new connection.
  typealias Job = @Sendable (Attempt) -> Bool

  /// A job, and when its caller stops waiting for it (`nil`: it waits as long as each of its
  /// statements may take).
  private struct Queued {
    let job: Job
    let deadline: ContinuousClock.Instant?
  }

  private struct Queue {
    var jobs: [Queued] = []
    var isClosed = false
  }

  let url: String
  /// Run on every new connection before its first job, e.g. `SET synchronous_commit = off`.
  private let setup: String?
  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)
  /// The number of connections (and threads).
  let size: Int

  /// Starts `size` threads; none connects before its first job.
  init(url: String, size: Int, setup: String? = nil) {
    self.url = url
    self.setup = setup
    self.size = size
    for index in 0..<size {
      let thread = Thread { [self] in serve() }
      thread.name = "StoreHost postgres \(index)"
      thread.start()
    }
  }

  /// Runs `body` with a connection on one of the pool's threads, within the statement
  /// timeout from now, time waiting for a free thread included: a job whose time ran out
  /// fails with ``PostgresError/timedOut(after:)`` without starting, and its statements
  /// may take only what is left.
  @discardableResult
  func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
    let deadline = ContinuousClock.now + PostgresConnection.defaultStatementTimeout
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
      guard submit(Self.job(body, then: { continuation.resume(with: $0) }), deadline: deadline) else {
        return continuation.resume(throwing: SessionPersistenceError.closed)
      }
    }
  }

  /// Runs `body` on one of the pool's threads and blocks the caller until it is done: for
  /// the rare caller that must not return before its write committed (an atomic change of a
  /// cluster shared value, made under that value's lock). The pool's threads are its own,
  /// so a blocked caller never holds up the job it waits for.
  func runBlocking<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let job = Self.job(body) { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    guard submit(job, deadline: .now + PostgresConnection.defaultStatementTimeout) else {
      throw SessionPersistenceError.closed
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
  }

  /// The job that runs `body` and hands its outcome to `finish`, asking once for a fresh
  /// connection when a reused one turns out broken.
  private static func job<T: Sendable>(
    _ body: @escaping @Sendable (PostgresConnection) throws -> T,
    then finish: @escaping @Sendable (Result<T, any Error>) -> Void
  ) -> Job {
    { attempt in
      switch attempt {
      case .failed(let error):
        finish(.failure(error))
      case .connection(let connection, let mayRetry):
        do {
          finish(.success(try body(connection)))
        } catch let error as PostgresError where error.isConnectionFailure && !error.didTimeOut && mayRetry {
          return false
        } catch {
          finish(.failure(error))
        }
      }
      return true
    }
  }

  /// Queues `job` for the next free thread; one with a `deadline` fails with
  /// ``PostgresError/timedOut(after:)`` instead of starting after it, and its statements
  /// wait for answers until it at most.
  /// - Returns: `false` when the pool is closed (the job will never run).
  func submit(_ job: @escaping Job, deadline: ContinuousClock.Instant? = nil) -> Bool {
    let accepted = queue.withLock { queue in
      guard !queue.isClosed else { return false }
      queue.jobs.append(Queued(job: job, deadline: deadline))
      return true
    }
    if accepted { available.signal() }
    return accepted
  }

  /// Lets the threads finish the jobs queued so far, then stops them; later jobs throw
  /// ``SessionPersistenceError/closed``.
  func close() {
    queue.withLock { $0.isClosed = true }
    for _ in 0..<size { available.signal() }
  }

  /// One thread's loop: takes jobs until the pool is closed and drained.
  private func serve() {
    var connection: PostgresConnection?
    while true {
      available.wait()
      guard let job = queue.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) else {
        if queue.withLock({ $0.isClosed && $0.jobs.isEmpty }) { return }
        continue
      }
      run(job, on: &connection)
    }
  }

  /// Runs `job` on the thread's connection, connecting first when there is none or it broke,
  /// and once more on a fresh connection when the reused one broke during the job; a job
  /// past its deadline fails at once.
  private func run(_ queued: Queued, on connection: inout PostgresConnection?) {
    if let deadline = queued.deadline, deadline <= .now {
      _ = queued.job(.failed(PostgresError.timedOut(after: PostgresConnection.defaultStatementTimeout)))
      return
    }
    if let reused = connection, reused.isHealthy {
      let answered = reused.answering(before: queued.deadline) { queued.job(.connection(reused, mayRetry: true)) }
      if answered { return }
    }
    do {
      let fresh = try PostgresConnection(url: url, connectTimeout: queued.deadline.map { $0 - .now } ?? .seconds(5))
      if let setup { try fresh.execute(setup) }
      connection = fresh
      _ = fresh.answering(before: queued.deadline) { queued.job(.connection(fresh, mayRetry: false)) }
    } catch {
      connection = nil
      _ = queued.job(.failed(error))
    }
  }
}
