import HTTP
import Testing

@Suite struct ServerMetricsTests {
  @Test func countsResponsesBytesAndOpenStreams() async throws {
    var router = testRouter()
    router.get("/metrics") { request in .text("\(request.serverMetrics.openEventStreams)") }
    router.get("/events") { _ in .eventStream { stream in await stream.waitUntilClosed() } }
    try await withServer(router: router) { server in
      let base = "http://127.0.0.1:\(server.port)"
      #expect(try await curl([base + "/hello", base + "/hello"]).output == "hellohello")
      let client = try await blocking {
        let client = try RawClient(port: server.port)
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read(until: "\r\n\r\n")
        return client
      }
      #expect(try await curl([base + "/metrics"]).output == "1")
      let during = server.metrics
      #expect(during.openEventStreams == 1)
      #expect(during.responses >= 3)
      #expect(during.bytesWritten > 0)
      try await blocking { client.shutdownWrite() }
      for _ in 0..<150 where server.metrics.openEventStreams > 0 { try await Task.sleep(for: .milliseconds(20)) }
      #expect(server.metrics.openEventStreams == 0)
      withExtendedLifetime(client) {}
    }
  }
}
