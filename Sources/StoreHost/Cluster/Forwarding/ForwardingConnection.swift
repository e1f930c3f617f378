import Foundation

/// One keep-alive HTTP/1.1 connection to another StoreHost process, used by one thread at a
/// time with blocking calls. It never resends a request by itself: a request that got no
/// answer after it was written is reported as such (``ForwardingFailure/outcomeUnknown``).
/// `@unchecked Sendable`: one thread uses it at a time, except ``shutDown()``, which another
/// may call to cut an exchange short (a `shutdown(2)` of its socket).
final class ForwardingConnection: @unchecked Sendable {
  /// The answer's parts a forwarder passes on.
  struct Answer {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    /// Whether the server will close the connection after this answer.
    var closes: Bool
  }

  /// The largest answer accepted, in bytes (a session's state is far smaller).
  static let maxAnswerBytes = 64 << 20

  private let descriptor: Int32
  /// When the connection was last used, so idle ones are dropped before the server's idle timeout.
  private(set) var lastUsed = ContinuousClock.now

  /// Connects to `host`:`port`, waiting at most `connectTimeout` for the connection and
  /// `timeout` for each read.
  /// - Throws: ``ForwardingFailure/notDelivered`` when nothing listens there, or it does not
  ///   accept in time.
  init(host: String, port: Int, connectTimeout: Duration, timeout: Duration) throws(ForwardingFailure) {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { throw .notDelivered }
    defer { freeaddrinfo(found) }
    let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw .notDelivered }
    guard Self.connect(descriptor, to: address.pointee, within: connectTimeout) else {
      close(descriptor)
      throw .notDelivered
    }
    var on: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    self.descriptor = descriptor
  }

  /// Connects the blocking socket `descriptor` without waiting longer than `timeout`.
  private static func connect(_ descriptor: Int32, to address: addrinfo, within timeout: Duration) -> Bool {
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    var probe = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&probe, 1, Int32(timeout.millisecondsValue)) == 1 else { return false }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
  }

  deinit {
    close(descriptor)
  }

  /// Shuts the connection in both directions, from any thread: a read or write waiting on
  /// it returns at once.
  func shutDown() {
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Whether the server still keeps the connection: not closed by it and nothing unread.
  var isReusable: Bool {
    var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&probe, 1, 0) == 0
  }

  /// Writes `request` and reads the answer; `isHead` for a HEAD request, whose answer has
  /// no body whatever its head says.
  /// - Throws: ``ForwardingFailure/outcomeUnknown`` when the connection failed meanwhile.
  func exchange(_ request: [UInt8], isHead: Bool) throws(ForwardingFailure) -> Answer {
    lastUsed = .now
    var written = 0
    while written < request.count {
      let count = request[written...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { throw written == 0 ? .notDelivered : .outcomeUnknown }
      written += count
    }
    return try readAnswer(isHead: isHead)
  }

  private func readAnswer(isHead: Bool) throws(ForwardingFailure) -> Answer {
    var buffer: [UInt8] = []
    var headEnd: Int?
    var answer = Answer(status: 0, headers: [], body: [], closes: false)
    var contentLength = 0
    while true {
      if headEnd == nil, let end = Self.endOfHead(in: buffer) {
        headEnd = end
        (answer, contentLength) = try Self.parseHead(buffer[..<end], isHead: isHead)
      }
      if let headEnd, buffer.count - headEnd >= contentLength {
        answer.body = Array(buffer[headEnd..<(headEnd + contentLength)])
        lastUsed = .now
        return answer
      }
      guard buffer.count <= Self.maxAnswerBytes else { throw .outcomeUnknown }
      var chunk = [UInt8](repeating: 0, count: 16 * 1024)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .outcomeUnknown }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// The index just after `\r\n\r\n`, when the head is complete.
  private static func endOfHead(in buffer: [UInt8]) -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 3..<buffer.count
    where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
      return index + 1
    }
    return nil
  }

  /// The status, headers and body length of a response head. Answers to HEAD, 204 and 304
  /// have no body (RFC 9112 section 6.3), with or without Content-Length.
  static func parseHead(_ head: ArraySlice<UInt8>, isHead: Bool) throws(ForwardingFailure) -> (Answer, Int) {
    let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ", maxSplits: 2)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
      throw .outcomeUnknown
    }
    var answer = Answer(status: status, headers: [], body: [], closes: statusParts[0] == "HTTP/1.0")
    var contentLength: Int?
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { throw .outcomeUnknown }
      let name = String(line[..<colon])
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      switch name.lowercased() {
      case "content-length": contentLength = Int(value)
      case "connection": answer.closes = value.lowercased() == "close"
      case "transfer-encoding": throw .outcomeUnknown
      default: answer.headers.append((name, value))
      }
    }
    if isHead || status == 204 || status == 304 { return (answer, 0) }
    guard let contentLength, contentLength >= 0 else { throw .outcomeUnknown }
    return (answer, contentLength)
  }
}

/// Why a forwarded request got no answer.
enum ForwardingFailure: Error {
  /// The owner could not be reached: the request was not delivered, so it may be retried.
  case notDelivered
  /// The connection failed after the request was sent: the owner may have applied it.
  case outcomeUnknown
  /// Too many forwards wait already: the request was not sent.
  case busy
}
