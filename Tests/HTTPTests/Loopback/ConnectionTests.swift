import Foundation
import HTTP
import Synchronization
import Testing

@Suite struct ConnectionTests {
  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    try await withServer { server in
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        client.send(
          "GET /slow/150 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nfast"
            + "GET /slow/10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return client.readAll()
      }
      #expect(statusCodes(answer) == [200, 200, 200])
      let first = try #require(answer.range(of: "slept 150"))
      let second = try #require(answer.range(of: "fast"))
      let third = try #require(answer.range(of: "slept 10"))
      #expect(first.lowerBound < second.lowerBound && second.lowerBound < third.lowerBound)
    }
  }

  @Test func aLongRunOfPipelinedImmediateAnswersComesBackWholeAndInOrder() async throws {
    var router = Router()
    router.get("/n/{n}") { request in .text(request.parameters["n"] ?? "?") }
    try await withServer(router: router) { server in
      let count = 2_000
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        var requests = ""
        for n in 0..<count {
          requests += "GET /n/\(n) HTTP/1.1\r\nHost: x\r\n\(n == count - 1 ? "Connection: close\r\n" : "")\r\n"
        }
        client.send(requests)
        return client.readAll()
      }
      let bodies = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.components(separatedBy: "\r\n\r\n").last! }
      #expect(bodies == (0..<count).map(String.init))
    }
  }

  @Test func aWaitingHandlerDoesNotBlockTheLoop() async throws {
    let gate = Gate()
    var router = testRouter()
    router.get("/wait") { _ in
      await gate.passed()
      return .text("waited")
    }
    try await withServer(router: router) { server in
      let slow = Task { try await curl(["http://127.0.0.1:\(server.port)/wait"]) }
      // Answered while the other handler (on the same single loop) still waits: were the
      // loop held, this would time out and the gate would never open.
      let fast = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(fast.output == "hello")
      gate.open()
      #expect(try await slow.value.output == "waited")
    }
  }

  @Test func handlersRunOnTheirLoopUnlessTheirRouteSaysTheSharedPool() async throws {
    var router = testRouter()
    router.get("/thread") { _ in .text(currentThread()) }
    router.get("/pool-thread", runsOn: .sharedPool) { _ in .text(currentThread()) }
    try await withServer(router: router) { server in
      // One loop: every handler placed on it runs on its one thread, pool handlers elsewhere.
      let base = "http://127.0.0.1:\(server.port)"
      let onLoop = try await curl([base + "/thread", base + "/thread", base + "/thread"])
      let onPool = try await curl([base + "/pool-thread"])
      let loopThreads = Set(onLoop.output.split(separator: ";"))
      #expect(loopThreads.count == 1)
      #expect(!onPool.output.isEmpty && !loopThreads.contains(Substring(onPool.output.dropLast())))
    }
  }

  @Test func aBlockingHandlerOnTheSharedPoolDoesNotBlockTheLoop() async throws {
    let gate = Gate()
    var router = testRouter()
    router.get("/block", runsOn: .sharedPool) { _ in
      gate.blockUntilOpen()
      return .text("blocked")
    }
    try await withServer(router: router) { server in
      let slow = Task { try await curl(["http://127.0.0.1:\(server.port)/block"]) }
      let fast = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(fast.output == "hello")
      gate.open()
      #expect(try await slow.value.output == "blocked")
    }
  }

  @Test func headAnswersHeadersOnlyAndOptionsListsMethods() async throws {
    try await withServer { server in
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        client.send(
          "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nOPTIONS /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return client.readAll()
      }
      #expect(statusCodes(answer) == [200, 204])
      #expect(answer.contains("Content-Length: 5\r\n"))
      #expect(!answer.contains("hello"))
      #expect(answer.contains("Allow: POST, OPTIONS\r\n"))
    }
  }

  @Test func chunkedBodiesAreReassembled() async throws {
    try await withServer { server in
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
        return client.readAll()
      }
      #expect(statusCode(answer) == 200)
      #expect(answer.hasSuffix("\r\n\r\nabcdefg"))
    }
  }

  @Test func expectContinueGetsAnInterimAnswer() async throws {
    try await withServer { server in
      let (interim, final) = try await blocking {
        let client = try RawClient(port: server.port)
        client.send(
          "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        let interim = client.read(until: "\r\n\r\n")
        client.send("ok")
        return (interim, client.readAll())
      }
      #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
      #expect(statusCode(final) == 200)
      #expect(final.hasSuffix("ok"))
    }
  }

  @Test func slowlorisGets408AndOthersAreServed() async throws {
    try await withServer { server in
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
        sleepBlocking(milliseconds: 200)
        client.send("X-Slow: 1\r\n")
        return client.readAll()
      }
      #expect(statusCode(answer) == 408)
      #expect(answer.contains(#""code":"request_timeout""#))
      let hello = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(hello.output == "hello")
    }
  }

  @Test func idleKeepAliveConnectionsAreClosed() async throws {
    var configuration = testConfiguration()
    configuration.limits.idleTimeout = .milliseconds(300)
    try await withServer(configuration) { server in
      let closed = try await blocking {
        let client = try RawClient(port: server.port, timeout: 3)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read(until: "hello")
        return client.seesClose()
      }
      #expect(closed)
    }
  }

  @Test func aClientThatStopsReadingIsDropped() async throws {
    var configuration = testConfiguration()
    configuration.limits.idleTimeout = .milliseconds(2500)
    var router = Router()
    router.get("/big") { _ in Response(body: .bytes([UInt8](repeating: 0x61, count: 32 * 1024 * 1024))) }
    try await withServer(configuration, router: router) { server in
      // Connected and asked at once, on one thread: with every suite running, this task can
      // wait seconds for a thread, longer than the idle timeout of a connection that has
      // sent nothing.
      let client = try await blocking {
        let client = try RawClient(port: server.port, receiveBuffer: 2048)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        return client
      }
      // The server answers, the client reads nothing: the answer stays queued until the
      // idle timeout drops the connection.
      var written = 0
      for _ in 0..<1500 where written == 0 {
        written = server.metrics.bytesWritten
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(written > 0)
      for _ in 0..<1500 where server.connectionCount > 0 {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(server.connectionCount == 0)
      withExtendedLifetime(client) {}
    }
  }

  @Test func aSecondServerOnATakenPortFailsToStart() async throws {
    try await withServer { server in
      var configuration = testConfiguration()
      configuration.port = server.port
      let second = HTTPServer(configuration: configuration, router: testRouter())
      #expect(throws: (any Error).self) { try second.start() }
      let hello = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(hello.output == "hello")
    }
  }

  @Test func connectionsBeyondTheLimitGet503() async throws {
    var configuration = testConfiguration()
    configuration.limits.maxConnections = 2
    try await withServer(configuration) { server in
      let answers = try await blocking {
        let first = try RawClient(port: server.port)
        let second = try RawClient(port: server.port)
        first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = first.read(until: "hello")
        _ = second.read(until: "hello")
        let third = try RawClient(port: server.port)
        let refused = third.readAll()
        withExtendedLifetime(first) {}
        return (refused, second)
      }
      #expect(statusCode(answers.0) == 503)
      #expect(answers.0.contains(#""code":"server_busy""#))
      #expect(answers.0.contains("\r\nContent-Security-Policy: \(SecurityHeaders.defaultContentSecurityPolicy)\r\n"))
      // The first client is gone now; once the server has seen that, the listener accepts.
      for _ in 0..<150 where server.connectionCount > 1 { try await Task.sleep(for: .milliseconds(20)) }
      let next = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(next.output == "hello")
      withExtendedLifetime(answers.1) {}
    }
  }

  @Test func shutdownFinishesInFlightRequestsAndRefusesNewOnes() async throws {
    let started = Atomic<Bool>(false)
    let gate = Gate()
    var router = Router()
    router.get("/held") { request in
      started.store(true, ordering: .relaxed)
      await gate.passed()
      return .text(request.isDraining ? "done while draining" : "done")
    }
    let server = HTTPServer(configuration: testConfiguration(), router: router)
    try server.start()
    let port = server.port
    let inFlight = Task {
      try await blocking {
        let client = try RawClient(port: port)
        client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        return client.readAll()
      }
    }
    // Shut down only once the handler is running; let it finish only once the server drains.
    while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
    let shutdown = Task { await server.shutdown() }
    while !server.isDraining { try await Task.sleep(for: .milliseconds(5)) }
    gate.open()
    await shutdown.value
    let answer = try await inFlight.value
    #expect(statusCode(answer) == 200)
    #expect(answer.contains("Connection: close"))
    #expect(answer.hasSuffix("done while draining"))
    #expect(throws: (any Error).self) { try RawClient(port: port) }
  }
}

/// The thread running the caller, followed by `;`.
private func currentThread() -> String { "\(pthread_self());" }
