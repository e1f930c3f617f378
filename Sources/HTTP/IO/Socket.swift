import CSystemShim
import Glibc

/// Socket helpers for listening and naming peers.
enum Socket {
  /// A non-blocking IPv4 listening socket on `host:port` with `SO_REUSEADDR` and
  /// `SO_REUSEPORT`, so every event loop can listen on the same port.
  static func listen(host: String, port: Int, backlog: Int32 = 4096) throws(SystemError) -> Int32 {
    let fd = try syscallChecked("socket") { csystem_socket_nonblocking(AF_INET) }
    do throws(SystemError) {
      var one: Int32 = 1
      let size = socklen_t(MemoryLayout<Int32>.size)
      try syscallChecked("setsockopt(SO_REUSEADDR)") { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size) }
      try syscallChecked("setsockopt(SO_REUSEPORT)") { setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, size) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
        throw SystemError(call: "inet_pton(\(host))", errno: EINVAL)
      }
      try syscallChecked("bind") {
        withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
      }
      try syscallChecked("listen") { Glibc.listen(fd, backlog) }
      return fd
    } catch {
      close(fd)
      throw error
    }
  }

  /// The local port a socket is bound to.
  static func localPort(_ fd: Int32) -> Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Accepts one connection: its socket and `host:port`, or would-block.
  static func accept(_ listener: Int32) throws(SystemError) -> IOResult<(Int32, String)> {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = try syscall("accept4") {
      withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { csystem_accept_nonblocking(listener, $0, &length) }
      }
    }
    switch result {
    case .wouldBlock: return .wouldBlock
    case .processed(let fd):
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      return .processed((fd, describe(address)))
    }
  }

  private static func describe(_ address: sockaddr_in) -> String {
    var copy = address.sin_addr
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    inet_ntop(AF_INET, &copy, &text, socklen_t(text.count))
    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return "\(host):\(UInt16(bigEndian: address.sin_port))"
  }
}
