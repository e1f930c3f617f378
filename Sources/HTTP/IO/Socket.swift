import CSystemShim
import Glibc

/// Socket helpers for listening and naming peers (IPv4 and IPv6).
enum Socket {
  /// A non-blocking listening socket on `host:port` with `SO_REUSEADDR`, and `SO_REUSEPORT`
  /// when `shared`, so every event loop can listen on the same port. `host` is an IPv4 or
  /// IPv6 literal (`::` listens on both families).
  ///
  /// A port shared this way is shared with any other process of the same user that asks
  /// for it too (connections then go to either, and those queued on a socket that closes are
  /// reset), so a server with one loop does not share its port: a second server on it fails.
  static func listen(host: String, port: Int, shared: Bool, backlog: Int32 = 4096) throws(SystemError) -> Int32 {
    let isIPv6 = host.contains(":")
    let fd = try syscallChecked("socket") { csystem_socket_nonblocking(isIPv6 ? AF_INET6 : AF_INET) }
    do throws(SystemError) {
      var one: Int32 = 1
      let size = socklen_t(MemoryLayout<Int32>.size)
      try syscallChecked("setsockopt(SO_REUSEADDR)") { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size) }
      if shared {
        try syscallChecked("setsockopt(SO_REUSEPORT)") { setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, size) }
      }
      var storage = sockaddr_storage()
      let length: Int
      if isIPv6 {
        length = MemoryLayout<sockaddr_in6>.size
        let parsed = withUnsafeMutableBytes(of: &storage) { raw in
          let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
          address.pointee.sin6_family = sa_family_t(AF_INET6)
          address.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
          return inet_pton(AF_INET6, host, &address.pointee.sin6_addr)
        }
        guard parsed == 1 else { throw SystemError(call: "inet_pton(\(host))", errno: EINVAL) }
      } else {
        length = MemoryLayout<sockaddr_in>.size
        let parsed = withUnsafeMutableBytes(of: &storage) { raw in
          let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
          address.pointee.sin_family = sa_family_t(AF_INET)
          address.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
          return inet_pton(AF_INET, host, &address.pointee.sin_addr)
        }
        guard parsed == 1 else { throw SystemError(call: "inet_pton(\(host))", errno: EINVAL) }
      }
      try syscallChecked("bind") {
        withUnsafePointer(to: &storage) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
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
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return port(of: storage)
  }

  /// Accepts one connection: its socket and `host:port`, or would-block.
  static func accept(_ listener: Int32) throws(SystemError) -> IOResult<(Int32, String)> {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = try syscall("accept4") {
      withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { csystem_accept_nonblocking(listener, $0, &length) }
      }
    }
    switch result {
    case .wouldBlock: return .wouldBlock
    case .processed(let fd):
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      return .processed((fd, describe(storage)))
    }
  }

  private static func port(of storage: sockaddr_storage) -> Int {
    var storage = storage
    return withUnsafeBytes(of: &storage) { raw in
      // sin_port and sin6_port sit at the same offset, in network byte order.
      Int(UInt16(bigEndian: raw.load(fromByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self)))
    }
  }

  private static func describe(_ storage: sockaddr_storage) -> String {
    var storage = storage
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = Int32(storage.ss_family)
    withUnsafeMutableBytes(of: &storage) { raw in
      if family == AF_INET6 {
        let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
        _ = inet_ntop(AF_INET6, &address.pointee.sin6_addr, &text, socklen_t(text.count))
      } else {
        let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
        _ = inet_ntop(AF_INET, &address.pointee.sin_addr, &text, socklen_t(text.count))
      }
    }
    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let port = port(of: storage)
    return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}
