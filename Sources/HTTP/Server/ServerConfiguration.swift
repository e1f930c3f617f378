/// Everything a server can be told, each with a documented default. A default value
/// serves plain HTTP on 127.0.0.1 at a free port.
public struct ServerConfiguration: Sendable {
  /// The IPv4 or IPv6 address to listen on. Default `127.0.0.1`; `0.0.0.0` (or `::`) for
  /// every interface.
  public var host: String = "127.0.0.1"
  /// The TCP port. Default 0: any free port, reported by ``HTTPServer/port`` after start.
  public var port: Int = 0
  /// Event loop threads, each with its own listening socket on the port (`SO_REUSEPORT`,
  /// only with more than one loop: a one-loop server never shares its port with another
  /// process). Default: the number of active processors.
  public var eventLoops: Int = SystemInfo.activeProcessorCount
  /// Parser and connection limits and timeouts.
  public var limits = HTTPLimits()
  /// Certificate and key for HTTPS, and which TLS versions and suites are offered.
  /// Default `nil`: plain HTTP.
  public var tls: TLSConfiguration?
  /// The headers that tell browsers how to protect the pages and answers of this server,
  /// sent on every response. Default: ``SecurityHeaders/init()``.
  public var securityHeaders = SecurityHeaders()
  /// How often an idle event stream gets a `: ping` comment. Default 15 s.
  public var heartbeatInterval: Duration = .seconds(15)
  /// Bytes an event stream may have queued and unsent before sends are refused or
  /// coalesced. Default 64 KiB.
  public var eventStreamBufferLimit: Int = 64 * 1024
  /// How long an event stream's client may stay too far behind before it is disconnected.
  /// Default 30 s.
  public var eventStreamStallTimeout: Duration = .seconds(30)
  /// How long a graceful shutdown waits for in-flight requests before closing everything.
  /// Default 10 s.
  public var shutdownTimeout: Duration = .seconds(10)
  /// After a pass over its sockets that had work, how long at most an event loop keeps
  /// looking for more without sleeping: a client that answers within it finds the loop
  /// awake, which spares the wake-up of a sleeping thread (tens of microseconds) on every
  /// round trip. Each loop adapts its window to how soon work has been coming (a quick
  /// client on a busy server gets all of it; requests farther apart than this, none), so
  /// polling costs CPU only where it spares wake-ups, and an idle loop sleeps. Default
  /// 50 µs; zero turns it off.
  public var busyPoll: Duration = .microseconds(50)
  /// Write one JSON line per response to stderr. Default `false`.
  public var accessLog: Bool = false

  /// The defaults listed on each property.
  public init() {}
}
