import Foundation
import Synchronization

/// One connection, on its own thread, that `LISTEN`s to some channels and hands each
/// notification to a handler in the order the database delivered them (commit order).
///
/// The handler runs on the listener's thread with its connection, so it may query the
/// database before the next notification is handled; jobs submitted with ``submit(_:)`` run on
/// the same thread between notifications, which orders them with the notifications too.
/// When the connection breaks, the listener calls `disconnected`, reconnects every half
/// second, listens again and calls `resynchronize`: notifications sent while it was away are
/// lost, so the handler must re-read what it follows.
final class PostgresListener: Sendable {
  /// Handles notifications and reconnections; called on the listener's thread only.
  protocol Handler: Sendable {
    func received(channel: String, payload: String, on connection: PostgresConnection)
    /// A new connection listens; a throw drops it and connects again later.
    func resynchronize(on connection: PostgresConnection) throws(PostgresError)
    /// The connection that listened broke.
    func disconnected()
  }

  private struct Control {
    var jobs: [@Sendable (PostgresConnection?) -> Void] = []
    var isStopped = false
  }

  private let control = Mutex(Control())
  /// A pipe whose read end wakes the thread's `poll` when a job arrives or it should stop.
  private let wakeRead: Int32
  private let wakeWrite: Int32

  /// Starts listening to `channels` on `url`.
  init(url: String, channels: [String], handler: some Handler) {
    var fds: [Int32] = [0, 0]
    _ = pipe(&fds)
    wakeRead = fds[0]
    wakeWrite = fds[1]
    _ = fcntl(wakeRead, F_SETFL, O_NONBLOCK)
    let thread = Thread { [self] in listen(url: url, channels: channels, handler: handler) }
    thread.name = "StoreHost postgres listener"
    thread.start()
  }

  /// Runs `job` on the listener's thread with its connection, or `nil` while it is not connected.
  func submit(_ job: @escaping @Sendable (PostgresConnection?) -> Void) {
    control.withLock { $0.jobs.append(job) }
    wake()
  }

  /// Stops the thread and closes its connection.
  func stop() {
    control.withLock { $0.isStopped = true }
    wake()
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  private func listen(url: String, channels: [String], handler: some Handler) {
    defer {
      close(wakeRead)
      close(wakeWrite)
    }
    var connection: PostgresConnection?
    while !control.withLock({ $0.isStopped }) {
      if connection?.isHealthy != true {
        if connection != nil { handler.disconnected() }
        connection = try? PostgresConnection(url: url)
        if let fresh = connection {
          do {
            for channel in channels { try fresh.execute("LISTEN \(channel)") }
            try handler.resynchronize(on: fresh)
          } catch {
            connection = nil
            handler.disconnected()
            runJobs(on: nil)
            waitForWake(milliseconds: 500)
            continue
          }
        }
      }
      runJobs(on: connection?.isHealthy == true ? connection : nil)
      guard let connection, connection.isHealthy else {
        waitForWake(milliseconds: 500)
        continue
      }
      var descriptors = [
        pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&descriptors, 2, 1000)
      drainWakePipe()
      guard let notifications = try? connection.takeNotifications() else { continue }
      for notification in notifications { handler.received(channel: notification.channel, payload: notification.payload, on: connection) }
    }
  }

  private func runJobs(on connection: PostgresConnection?) {
    let jobs = control.withLock { control in
      defer { control.jobs = [] }
      return control.jobs
    }
    for job in jobs { job(connection) }
  }

  private func waitForWake(milliseconds: Int32) {
    var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, milliseconds)
    drainWakePipe()
  }

  private func drainWakePipe() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(wakeRead, &buffer, buffer.count) > 0 {}
  }
}
