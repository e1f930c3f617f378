import Glibc

struct RawClientError: Error, CustomStringConvertible {
  var description: String
}

/// A blocking loopback TCP client for sending exact bytes. Use it inside ``blocking(_:)``.
final class RawClient: @unchecked Sendable {
  let fd: Int32

  /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
  init(port: Int, timeout: Double = 15, receiveBuffer: Int32? = nil) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawClientError(description: "socket failed") }
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    // No close here: an initializer that throws once `fd` is set still runs `deinit`, and
    // closing twice could close a descriptor another thread has just been given.
    guard result == 0 else { throw RawClientError(description: "connect failed: errno \(errno)") }
  }

  deinit { close(fd) }

  func send(_ text: String) { send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent <= 0 { return }
      offset += sent
    }
  }

  /// Reads until the server closes or the read timeout passes.
  func readAll() -> String { String(decoding: readAllBytes(), as: UTF8.self) }

  /// The bytes read until the server closes or the read timeout passes.
  func readAllBytes() -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return received
  }

  /// Reads until `marker` has arrived (or close/timeout); returns everything read.
  func read(until marker: String) -> String {
    var received: [UInt8] = []
    var byte: UInt8 = 0
    let target = Array(marker.utf8)
    while !received.ends(with: target) {
      let count = recv(fd, &byte, 1, 0)
      if count <= 0 { break }
      received.append(byte)
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// Whether the server has closed (a read sees EOF or a reset before the timeout).
  func seesClose() -> Bool {
    var byte: UInt8 = 0
    while true {
      let count = recv(fd, &byte, 1, 0)
      if count == 0 { return true }
      if count < 0 { return errno == ECONNRESET }
    }
  }

  func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

/// The status code of the first response in `text`, e.g. 200.
func statusCode(_ text: String) -> Int? {
  let parts = text.split(separator: " ", maxSplits: 2)
  guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
  return Int(parts[1])
}

/// Every status line's code in `text`, in order.
func statusCodes(_ text: String) -> [Int] {
  var codes: [Int] = []
  var rest = Substring(text)
  while let range = rest.range(of: "HTTP/1.1 ") {
    rest = rest[range.upperBound...]
    if let code = Int(rest.prefix(3)) { codes.append(code) }
  }
  return codes
}
