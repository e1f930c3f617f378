import HTTP

/// Small limits so timeouts and bounds trigger within a test's time.
func testConfiguration() -> ServerConfiguration {
  var configuration = ServerConfiguration()
  configuration.eventLoops = 1
  configuration.limits.maxHeadBytes = 2048
  configuration.limits.maxHeaderCount = 20
  configuration.limits.maxBodyBytes = 4096
  configuration.limits.requestHeadTimeout = .milliseconds(500)
  configuration.limits.requestBodyTimeout = .milliseconds(800)
  configuration.limits.idleTimeout = .seconds(2)
  configuration.shutdownTimeout = .seconds(2)
  return configuration
}

/// A router with the endpoints the loopback tests use.
func testRouter() -> Router {
  var router = Router()
  router.get("/hello") { _ in .text("hello") }
  router.get("/slow/{ms}") { request in
    let milliseconds = Int(request.parameters["ms"] ?? "") ?? 0
    try await Task.sleep(for: .milliseconds(milliseconds))
    return .text("slept \(milliseconds)\(request.isDraining ? " draining" : "")")
  }
  router.post("/echo") { request in Response(status: 200, body: .bytes(request.body)) }
  return router
}

/// Runs `body` against a started server, then shuts it down.
func withServer(
  _ configuration: ServerConfiguration = testConfiguration(), router: Router = testRouter(),
  _ body: (HTTPServer) async throws -> Void
) async throws {
  let server = HTTPServer(configuration: configuration, router: router)
  try server.start()
  do {
    try await body(server)
  } catch {
    await server.shutdown()
    throw error
  }
  await server.shutdown()
}
