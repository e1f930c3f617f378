/// What every event loop of one server shares: read-only after start.
final class ServerCore: Sendable {
  let configuration: ServerConfiguration
  let router: Router
  let state: ServerState
  let tls: TLSContext?
  /// How often loops check timeouts and heartbeats: a quarter of the shortest timeout,
  /// between 20 ms and 250 ms.
  let tickInterval: Duration

  init(configuration: ServerConfiguration, router: Router, state: ServerState, tls: TLSContext?) {
    self.configuration = configuration
    self.router = router
    self.state = state
    self.tls = tls
    let limits = configuration.limits
    let shortest = [
      limits.idleTimeout, limits.requestHeadTimeout, limits.requestBodyTimeout, configuration.heartbeatInterval,
      configuration.eventStreamStallTimeout,
    ].min()!
    tickInterval = max(.milliseconds(20), min(.milliseconds(250), shortest / 4))
  }
}
