/// What one event loop serves with, read-only after start: the server's configuration and
/// state, and copies of its own of the router and the security header bytes. Each loop has
/// its own core, so that answering a request takes and drops references only to objects of
/// its own thread: an atomic count that another core wrote last costs a cache miss.
final class ServerCore: Sendable {
  let configuration: ServerConfiguration
  let router: Router
  let state: ServerState
  let tls: ReloadableTLSContext?
  /// The security headers every answer carries, as bytes.
  let securityHeaders: SecurityHeaderBlock
  /// The whole answer to a plain HTTP connection beyond ``HTTPLimits/maxConnections``.
  let busyAnswer: [UInt8]
  /// How often loops check timeouts and heartbeats: a quarter of the shortest timeout,
  /// between 20 ms and 250 ms.
  let tickInterval: Duration

  init(configuration: ServerConfiguration, router: Router, state: ServerState, tls: ReloadableTLSContext?) {
    self.configuration = configuration
    self.router = router.copiedForOneLoop()
    self.state = state
    self.tls = tls
    securityHeaders = SecurityHeaderBlock(configuration.securityHeaders, https: tls != nil)
    busyAnswer = Self.busyAnswer(securityHeaders)
    let limits = configuration.limits
    let shortest = [
      limits.idleTimeout, limits.requestHeadTimeout, limits.requestBodyTimeout, configuration.heartbeatInterval,
      configuration.eventStreamStallTimeout,
    ].min()!
    tickInterval = max(.milliseconds(20), min(.milliseconds(250), shortest / 4))
  }

  private static func busyAnswer(_ securityHeaders: SecurityHeaderBlock) -> [UInt8] {
    let body = JSONErrorBody.encode(code: "server_busy", message: "The server has too many open connections.")
    var answer = Array(
      ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: \(Response.jsonContentType)\r\n"
        + "Content-Length: \(body.count)\r\nConnection: close\r\nRetry-After: 1\r\n").utf8)
    securityHeaders.write(skipping: [], into: &answer)
    return answer + Array("\r\n".utf8) + body
  }
}
