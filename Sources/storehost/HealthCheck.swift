import Glibc

/// `storehost healthcheck [--ready]`: asks a running server's `/healthz` (liveness: it
/// serves), or with `--ready` its `/readyz` (readiness: it should get traffic), and exits 0
/// only on 200.
///
/// Made for container health checks, so an image needs no curl: it reads the same flags
/// and environment variables as the server, so `STOREHOST_PORT` and `STOREHOST_HOST` in
/// the container lead it to the right socket. A wildcard listen address (`0.0.0.0`, `::`)
/// is checked on loopback. With TLS on, it checks only that the port accepts connections,
/// since speaking TLS here would need a client the command does not otherwise carry.
enum HealthCheck {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How long connecting, sending and reading may each take.
  static let timeoutSeconds = 3

  /// The liveness probe's path, and the readiness probe's.
  static let livenessPath = "/healthz"
  static let readinessPath = "/readyz"

  /// Runs the check of `path` for `settings` and returns the process's exit status.
  static func run(_ settings: Settings, path: String = livenessPath) -> Int32 {
    do {
      let status = try check(settings, path: path)
      if status == 200 { return 0 }
      writeError("healthcheck: \(path) answered \(status)")
    } catch {
      writeError("healthcheck: \(error.description)")
    }
    return 1
  }

  /// The status of `GET path`, or 200 when TLS is on and the port accepts connections.
  static func check(_ settings: Settings, path: String = livenessPath) throws(Failure) -> Int {
    let port = settings.server.port
    guard port != 0 else { throw Failure(description: "needs a fixed port (--port or STOREHOST_PORT), not 0") }
    let host = switch settings.server.host {
    case "0.0.0.0", "": "127.0.0.1"
    case "::", "[::]": "::1"
    default: settings.server.host
    }
    let socket = try connect(host: host, port: port)
    defer { close(socket) }
    if settings.server.tls != nil { return 200 }
    let request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
    var bytes = Array(request.utf8)
    let sent = bytes.withUnsafeMutableBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == bytes.count else { throw Failure(description: "could not send the request: \(reason())") }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while response.count < 64 * 1024, !response.contains(UInt8(ascii: "\n")) {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      response += buffer[..<count]
    }
    return try statusCode(of: response)
  }

  /// The status code in an HTTP/1.x status line: `HTTP/1.1 200 OK` -> 200.
  static func statusCode(of response: [UInt8]) throws(Failure) -> Int {
    let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      throw Failure(description: response.isEmpty ? "no answer" : "not an HTTP answer: '\(statusLine.prefix(80))'")
    }
    return status
  }

  private static func connect(host: String, port: Int) throws(Failure) -> Int32 {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let lookup = getaddrinfo(host, String(port), &hints, &list)
    guard lookup == 0, let first = list else {
      throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(lookup)))")
    }
    defer { freeaddrinfo(first) }
    var lastError = "no address"
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next {
      next = address.pointee.ai_next
      let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard socket >= 0 else { lastError = reason(); continue }
      var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
      for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
        setsockopt(socket, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
      }
      if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
      lastError = reason()
      close(socket)
    }
    throw Failure(description: "cannot connect to \(host):\(port): \(lastError)")
  }

  private static func reason() -> String { String(cString: strerror(errno)) }

  private static func writeError(_ message: String) {
    var bytes = Array("storehost \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }
}
