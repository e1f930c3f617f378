import Foundation
import HTTP
import Synchronization

/// Hands a request for a session to the process that owns it, over HTTP/1.1, and returns that
/// process's answer as is.
///
/// The forwarding process has already authenticated the request (and run the CSRF checks of
/// a cookie), so the token always travels as `Authorization: Bearer`, with the
/// `Idempotency-Key` the caller gives (the client's, or one made for the forward) and a
/// signed ``ForwardingSignature`` header: its receiver never forwards it again, and answers
/// ``HTTPError/sessionMoved()`` if the session left it meanwhile.
///
/// ``threadCount`` dedicated threads send the requests with blocking calls, each keeping one
/// keep-alive connection per owner (``ForwardingConnection``), so a forward costs two
/// system calls on a warm connection and never holds a thread of the cooperative pool while
/// the owner commits. Limits keep one slow or hung owner from holding up the others: at most
/// ``threadsPerOwner`` threads wait for one owner, at most ``maxQueued`` requests wait for a
/// thread (more are refused at once, ``ForwardingFailure/busy``), a connection that does not
/// open within ``connectTimeout`` is not delivered, and an answer is waited for at most
/// ``answerTimeout``; the caller can give up sooner (``ForwardExchange/abandon()``). Nothing
/// is resent here.
final class RequestForwarder: Sendable {
  /// Forwards in flight at once: each waits for the owner's answer, which in strict mode
  /// includes its commit.
  static let threadCount = 16
  /// Threads that may wait for one owner at once.
  static let threadsPerOwner = 12
  /// Requests that may wait for a thread.
  static let maxQueued = 256
  /// How long a connection to an owner may take to open.
  static let connectTimeout: Duration = .seconds(1)
  /// Longer than the longest `?wait=effects` answer (30 s).
  static let answerTimeout: Duration = .seconds(35)
  /// Connections idle for longer are closed rather than reused, well before the server's
  /// 60 s idle timeout could close them under a request.
  static let maxIdle: Duration = .seconds(20)

  private typealias Job = @Sendable (inout [String: ForwardingConnection]) -> Void

  let processID: String
  private let signature: ForwardingSignature

  private struct Queue {
    var jobs: [(owner: String, job: Job)] = []
    var running: [String: Int] = [:]
    var isStopped = false
  }

  private let queue = Mutex(Queue())
  private let available = DispatchSemaphore(value: 0)

  init(processID: String, signer: SessionTokenSigner) {
    self.processID = processID
    self.signature = ForwardingSignature(signer: signer)
    for index in 0..<Self.threadCount {
      let thread = Thread { [self] in serve() }
      thread.name = "StoreHost forwarder \(index)"
      thread.start()
    }
  }

  /// Starts sending `request` with `token` and `key` to the process at `address` (`http://host:port`).
  /// - Throws: ``ForwardingFailure/busy`` when too many forwards wait already,
  ///   ``ForwardingFailure/notDelivered`` for an address that is not `http://host:port`.
  func start(_ request: Request, token: String, key: String, to address: String) throws(ForwardingFailure)
    -> ForwardExchange
  {
    guard let (host, port) = Self.hostAndPort(address) else { throw .notDelivered }
    let bytes = encode(request, token: token, key: key, host: "\(host):\(port)")
    let isHead = request.method == "HEAD"
    let exchange = ForwardExchange()
    let job: Job = { connections in
      guard !exchange.isAbandoned else { return exchange.finish(.failure(.notDelivered)) }
      exchange.finish(Result { () throws(ForwardingFailure) in
        try Self.exchange(bytes, isHead: isHead, host: host, port: port, exchange: exchange, connections: &connections)
      })
    }
    let queued = queue.withLock { queue -> ForwardingFailure? in
      guard !queue.isStopped else { return .notDelivered }
      guard queue.jobs.count < Self.maxQueued else { return .busy }
      queue.jobs.append((address, job))
      return nil
    }
    if let queued { throw queued }
    available.signal()
    return exchange
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
      let (next, isStopped) = queue.withLock { queue -> ((owner: String, job: Job)?, Bool) in
        guard let index = queue.jobs.firstIndex(where: { queue.running[$0.owner, default: 0] < Self.threadsPerOwner })
        else { return (nil, queue.isStopped && queue.jobs.isEmpty) }
        let next = queue.jobs.remove(at: index)
        queue.running[next.owner, default: 0] += 1
        return (next, false)
      }
      if let next {
        next.job(&connections)
        let waiting = queue.withLock { queue in
          queue.running[next.owner]! -= 1
          if queue.running[next.owner] == 0 { queue.running[next.owner] = nil }
          return !queue.jobs.isEmpty
        }
        if waiting { available.signal() }
        continue
      }
      if isStopped { return }
      available.wait()
    }
  }

  /// Sends `bytes` on this thread's connection to the owner, or a new one, letting
  /// `exchange` cut it short.
  private static func exchange(
    _ bytes: [UInt8], isHead: Bool, host: String, port: Int, exchange: ForwardExchange,
    connections: inout [String: ForwardingConnection]
  ) throws(ForwardingFailure) -> Response {
    let key = "\(host):\(port)"
    let connection: ForwardingConnection
    if let idle = connections.removeValue(forKey: key), idle.isReusable, ContinuousClock.now - idle.lastUsed < maxIdle {
      connection = idle
    } else {
      connection = try ForwardingConnection(host: host, port: port, connectTimeout: connectTimeout, timeout: answerTimeout)
    }
    guard exchange.attach(connection) else { throw .notDelivered }
    let answer: ForwardingConnection.Answer
    do {
      answer = try connection.exchange(bytes, isHead: isHead)
    } catch {
      exchange.detach()
      throw error
    }
    exchange.detach()
    if !answer.closes { connections[key] = connection }
    var headers: HTTPHeaders = [:]
    let passed = ["content-type", "retry-after", "www-authenticate", "allow", "idempotent-replayed"]
    for (name, value) in answer.headers where passed.contains(name.lowercased()) {
      headers.add(name, value)
    }
    return Response(status: answer.status, headers: headers, body: .bytes(answer.body))
  }

  /// The request as the owner receives it.
  private func encode(_ request: Request, token: String, key: String, host: String) -> [UInt8] {
    let target = request.path + (request.query.map { "?" + $0 } ?? "")
    var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(token)\r\n"
    head += "\(IdempotencyKey.headerName): \(key)\r\n"
    head += "\(ForwardingSignature.headerName): \(signature.header(for: request, key: key, token: token, processID: processID))\r\n"
    if let contentType = request.headers["Content-Type"] { head += "Content-Type: \(contentType)\r\n" }
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
