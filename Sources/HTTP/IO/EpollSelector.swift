import CSystemShim
import Glibc

/// ``Selector`` on Linux epoll, level-triggered.
struct EpollSelector: Selector, ~Copyable {
  private let epollFD: Int32
  private let events: UnsafeMutableRawPointer
  private let capacity: Int32

  /// Creates an epoll instance reporting up to `capacity` events per wait.
  init(capacity: Int32 = 256) throws(SystemError) {
    epollFD = try syscallChecked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    self.capacity = capacity
    events = UnsafeMutableRawPointer.allocate(
      byteCount: Int(csystem_epoll_event_size()) * Int(capacity), alignment: 8)
  }

  deinit {
    events.deallocate()
    close(epollFD)
  }

  private func mask(_ interest: Interest) -> UInt32 {
    // Hang-ups after a half-close are only wanted while reading; level-triggered epoll would
    // otherwise report them again on every wait.
    var mask: UInt32 = 0
    if interest.contains(.read) { mask |= UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue) }
    if interest.contains(.write) { mask |= UInt32(EPOLLOUT.rawValue) }
    return mask
  }

  func register(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemError) {
    try syscallChecked("epoll_ctl(ADD)") { csystem_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, mask(interest), token) }
  }

  func reregister(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemError) {
    try syscallChecked("epoll_ctl(MOD)") { csystem_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, mask(interest), token) }
  }

  func deregister(_ fd: Int32) {
    _ = csystem_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
  }

  func wait(timeoutMilliseconds: Int32, _ handler: (ReadinessEvent) -> Void) throws(SystemError) {
    let typed = events.assumingMemoryBound(to: epoll_event.self)
    let count: Int32
    switch try syscall("epoll_wait", { csystem_epoll_wait(epollFD, typed, capacity, timeoutMilliseconds) }) {
    case .processed(let n): count = n
    case .wouldBlock: return
    }
    let stride = Int(csystem_epoll_event_size())
    for index in 0..<Int(count) {
      let event = (events + index * stride).assumingMemoryBound(to: epoll_event.self)
      let bits = csystem_epoll_event_mask(event)
      handler(
        ReadinessEvent(
          token: csystem_epoll_event_data(event),
          readable: bits & UInt32(EPOLLIN.rawValue) != 0,
          writable: bits & UInt32(EPOLLOUT.rawValue) != 0,
          hangup: bits & (UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue) | UInt32(EPOLLRDHUP.rawValue)) != 0))
    }
  }
}
