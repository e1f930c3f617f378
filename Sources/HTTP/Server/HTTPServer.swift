import Dispatch
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server: one epoll event loop per thread, handlers on Swift tasks.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { request in
///   request.isDraining ? Response(status: 503) : .text("ok")
/// }
/// let server = HTTPServer(configuration: ServerConfiguration(), router: router)
/// try server.start()
/// print("listening on port \(server.port)")
/// try await server.run()  // returns after SIGTERM/SIGINT and a drain
/// ```
public final class HTTPServer: Sendable {
  private struct State {
    var loops: [EventLoop] = []
    var tls: ReloadableTLSContext?
    var port = 0
    var running = 0
    var started = false
    var shutdownRequested = false
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// The configuration the server was created with.
  public let configuration: ServerConfiguration
  private let router: Router
  private let shared: ServerState
  private let state = Mutex(State())

  /// A server that will serve `router` with `configuration` once started.
  public init(configuration: ServerConfiguration = ServerConfiguration(), router: Router) {
    self.configuration = configuration
    self.router = router
    shared = ServerState(loopCount: configuration.eventLoops)
  }

  /// The bound port (useful with port 0); 0 before ``start()``.
  public var port: Int { state.withLock { $0.port } }

  /// Whether a shutdown has begun: new connections are refused and handlers should wind
  /// down (health checks answer 503).
  public var isDraining: Bool { shared.isDraining }

  /// Open connections right now, across all loops.
  public var connectionCount: Int { shared.connectionCount.load(ordering: .relaxed) }

  /// The server's counters right now.
  public var metrics: ServerMetrics { shared.metrics }

  /// Binds the listening sockets and starts the event loop threads. Returns at once.
  ///
  /// - Throws: ``SystemError`` if the address cannot be bound; ``TLSError`` if the
  ///   certificate or key cannot be loaded.
  public func start() throws {
    try state.withLock { state in
      guard !state.started else { return }
      signal(SIGPIPE, SIG_IGN)
      let tls = try configuration.tls.map { configuration throws(TLSError) in try ReloadableTLSContext(configuration) }
      var port = configuration.port
      var loops: [EventLoop] = []
      do {
        for index in 0..<max(1, configuration.eventLoops) {
          let listener = try Socket.listen(host: configuration.host, port: port, shared: configuration.eventLoops > 1)
          port = Socket.localPort(listener)
          do {
            let core = ServerCore(configuration: configuration, router: router, state: shared, tls: tls)
            loops.append(try EventLoop(core: core, listener: listener, counters: shared.loopCounters[index]))
          } catch {
            close(listener)
            throw error
          }
        }
      } catch {
        // Loops that were made close their listeners when drained.
        for loop in loops { loop.beginDrain(deadline: .now) }
        throw error
      }
      state.loops = loops
      state.tls = tls
      state.port = port
      state.running = loops.count
      state.started = true
      for (index, loop) in loops.enumerated() {
        let thread = Thread { [self] in
          loop.run()
          loopStopped()
        }
        thread.name = "http-loop-\(index)"
        thread.start()
      }
      if let tls, let interval = tls.configuration.reloadCheckInterval {
        tls.startWatching(every: interval, report: tls.configuration.onReload)
      }
    }
  }

  /// Loads the certificate and key again from their files: new connections get the new
  /// pair, connections already open keep theirs. SIGHUP does the same while ``run()`` runs.
  ///
  /// - Throws: ``TLSError`` if the server does not serve HTTPS, or if the new pair does not
  ///   load or does not match; the previous pair is then still served.
  public func reloadCertificate() throws(TLSError) {
    guard let tls = state.withLock({ $0.tls }) else {
      throw TLSError(description: "TLS: the server does not serve HTTPS, so it has no certificate to reload")
    }
    if case .refused(let error) = tls.reload() { throw error }
  }

  /// Starts if needed, then serves until SIGTERM or SIGINT, drains, and returns. With
  /// HTTPS, SIGHUP loads the certificate and key again (see ``TLSConfiguration``).
  public func run() async throws {
    try start()
    var handlers: [Int32: @Sendable () -> Void] = [
      SIGTERM: { [self] in Task { await shutdown() } },
      SIGINT: { [self] in Task { await shutdown() } },
    ]
    if let tls = state.withLock({ $0.tls }) {
      handlers[SIGHUP] = { tls.configuration.onReload(tls.reload()) }
    }
    let sources = handlers.map { signalNumber, handler in
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      return source
    }
    await waitUntilStopped()
    for source in sources { source.cancel() }
  }

  /// Graceful shutdown: stops accepting, lets in-flight requests finish, ends event
  /// streams, closes idle connections, and force-closes whatever is left after
  /// ``ServerConfiguration/shutdownTimeout``. Returns when every loop has stopped.
  public func shutdown() async {
    let loops = state.withLock { state -> [EventLoop] in
      guard state.started, !state.shutdownRequested else { return [] }
      state.shutdownRequested = true
      return state.loops
    }
    shared.startDraining()
    let deadline = MonotonicInstant.now + configuration.shutdownTimeout
    for loop in loops { loop.execute { loop.beginDrain(deadline: deadline) } }
    await waitUntilStopped()
  }

  /// Suspends until the server has stopped (immediately if it never started).
  public func waitUntilStopped() async {
    await withCheckedContinuation { continuation in
      let stopped = state.withLock { state -> Bool in
        if !state.started || state.running == 0 { return true }
        state.stopWaiters.append(continuation)
        return false
      }
      if stopped { continuation.resume() }
    }
  }

  private func loopStopped() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.running -= 1
      guard state.running == 0 else { return [] }
      state.tls?.stopWatching()
      defer { state.stopWaiters = [] }
      return state.stopWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
