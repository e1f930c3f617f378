/// What a file descriptor is watched for.
struct Interest: OptionSet, Sendable {
  let rawValue: UInt32
  /// Readable, or the peer hung up.
  static let read = Interest(rawValue: 1)
  /// Writable.
  static let write = Interest(rawValue: 2)
}

/// One readiness report from a ``Selector``.
struct ReadinessEvent {
  /// The token given at registration.
  var token: UInt64
  var readable: Bool
  var writable: Bool
  /// The peer hung up or the socket is in error.
  var hangup: Bool
}

/// The small interface the event loop needs from an OS readiness API (epoll here).
protocol Selector: ~Copyable {
  /// Starts watching `fd`, reporting events with `token`.
  func register(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemError)
  /// Changes what `fd` is watched for.
  func reregister(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemError)
  /// Stops watching `fd`.
  func deregister(_ fd: Int32)
  /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `handler` for each event.
  func wait(timeoutMilliseconds: Int32, _ handler: (ReadinessEvent) -> Void) throws(SystemError)
}

/// The selector the event loop uses on this platform; the loop sees only the
/// ``Selector`` requirements.
typealias PlatformSelector = EpollSelector
