import Foundation
import HTTP
import Synchronization

/// Hands a request for a session to the process that owns it, over HTTP/1.1, and returns that
/// process's answer as is.
///
/// The forwarding process has already authenticated the request (and run the CSRF checks of
/// a cookie), so the token always travels as `Authorization: Bearer`. The
/// ``forwardedHeader`` marks the copy: its receiver never forwards it again, and answers
/// ``HTTPError/sessionMoved()`` if the session left it meanwhile.
///
/// ``threadCount`` dedicated threads send the requests with blocking calls, each keeping one
/// keep-alive connection per owner (``ForwardingConnection``), so a forward costs two
/// system calls on a warm connection and never holds a thread of the cooperative pool while
/// the owner commits. Nothing is resent on its own: a request is retried only when it
/// certainly did not reach the owner.
final class RequestForwarder: Sendable {
  /// The header that marks a forwarded request; its value is the forwarding process's id.
  static let forwardedHeader = "X-StoreHost-Forwarded"
  /// Forwards in flight at once: each waits for the owner's answer, which in strict mode
  /// includes its commit.
  static let threadCount = 16
  /// Longer than the longest `?wait=effects` answer (30 s).
  static let timeout: Duration = .seconds(35)
  /// Connections idle for longer are closed rather than reused, well before the server's
  /// 60 s idle timeout could close them under a request.
  static let maxIdle: Duration = .seconds(20)

  private typealias Job = @Sendable (inout [String: ForwardingConnection]) -> Void

  let processID: String
  private struct Queue {
    var jobs: [Job] = []
    var isStopped = false
  }

  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)

  init(processID: String) {
    self.processID = processID
    for index in 0..<Self.threadCount {
      let thread = Thread { [self] in serve() }
      thread.name = "StoreHost forwarder \(index)"
      thread.start()
    }
  }

  /// Sends `request` with `token` to the process at `address` (`http://host:port`).
  /// - Throws: A ``ForwardingFailure`` when no answer came.
  func forward(_ request: Request, token: String, to address: String) async throws(ForwardingFailure) -> Response {
    guard let (host, port) = Self.hostAndPort(address) else { throw .notDelivered }
    let bytes = encode(request, token: token, host: "\(host):\(port)")
    let isHead = request.method == "HEAD"
    let result = await withCheckedContinuation { (answered: CheckedContinuation<Result<Response, ForwardingFailure>, Never>) in
      let job: Job = { connections in
        answered.resume(returning: Result { () throws(ForwardingFailure) in
          try Self.exchange(bytes, isHead: isHead, host: host, port: port, connections: &connections)
        })
      }
      let queued = queue.withLock { queue in
        guard !queue.isStopped else { return false }
        queue.jobs.append(job)
        return true
      }
      if queued { available.signal() } else { answered.resume(returning: .failure(.notDelivered)) }
    }
    return try result.get()
  }

  /// Ends the threads once the forwards already queued are answered; later forwards fail
  /// as not delivered.
  func stop() {
    queue.withLock { $0.isStopped = true }
    for _ in 0..<Self.threadCount { available.signal() }
  }

  /// One thread's loop until stopped and drained; its connections live as long as it does.
  private func serve() {
    var connections: [String: ForwardingConnection] = [:]
    while true {
      available.wait()
      let (job, isStopped) = queue.withLock { queue in
        (queue.jobs.isEmpty ? nil : queue.jobs.removeFirst(), queue.isStopped)
      }
      if let job {
        job(&connections)
      } else if isStopped {
        return
      }
    }
  }

  /// Sends `bytes` on this thread's connection to the owner, or a new one.
  private static func exchange(
    _ bytes: [UInt8], isHead: Bool, host: String, port: Int, connections: inout [String: ForwardingConnection]
  ) throws(ForwardingFailure) -> Response {
    let key = "\(host):\(port)"
    let connection: ForwardingConnection
    if let idle = connections.removeValue(forKey: key), idle.isReusable, ContinuousClock.now - idle.lastUsed < maxIdle {
      connection = idle
    } else {
      connection = try ForwardingConnection(host: host, port: port, timeout: timeout)
    }
    let answer = try connection.exchange(bytes, isHead: isHead)
    if !answer.closes { connections[key] = connection }
    var headers: HTTPHeaders = [:]
    let passed = ["content-type", "retry-after", "www-authenticate", "allow", "idempotent-replayed"]
    for (name, value) in answer.headers where passed.contains(name.lowercased()) {
      headers.add(name, value)
    }
    return Response(status: answer.status, headers: headers, body: .bytes(answer.body))
  }

  /// The request as the owner receives it.
  private func encode(_ request: Request, token: String, host: String) -> [UInt8] {
    let target = request.path + (request.query.map { "?" + $0 } ?? "")
    var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
    head += "Authorization: Bearer \(token)\r\n\(Self.forwardedHeader): \(processID)\r\n"
    if let contentType = request.headers["Content-Type"] { head += "Content-Type: \(contentType)\r\n" }
    if let key = request.headers[IdempotencyKey.headerName] { head += "\(IdempotencyKey.headerName): \(key)\r\n" }
    head += "Content-Length: \(request.body.count)\r\n\r\n"
    return Array(head.utf8) + request.body
  }

  /// `http://host:port` -> (`host`, `port`); `nil` for anything else.
  static func hostAndPort(_ address: String) -> (String, Int)? {
    guard address.hasPrefix("http://") else { return nil }
    let authority = address.dropFirst("http://".count).split(separator: "/", maxSplits: 1).first ?? ""
    guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
      return nil
    }
    let host = authority[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return host.isEmpty ? nil : (host, port)
  }
}
