import HTTP
import Synchronization
import Testing

/// What the server-side stream handler saw.
private final class Observations: Sendable {
  let peak = Atomic<Int>(0)
  let coalesced = Atomic<Int>(0)
  let sent = Atomic<Int>(0)
  let clientGone = Atomic<Bool>(false)
}

/// Holds a stream without keeping it alive.
private final class WeakStream: Sendable {
  private let reference = Mutex<Reference>(Reference())
  private struct Reference { weak var stream: EventStream? }
  func set(_ stream: EventStream) { reference.withLock { $0.stream = stream } }
  var isAlive: Bool { reference.withLock { $0.stream != nil } }
}

@Suite struct EventStreamLoopbackTests {
  @Test func streamsWithSSEHeadersAndHeartbeats() async throws {
    var configuration = testConfiguration()
    configuration.heartbeatInterval = .milliseconds(200)
    var router = Router()
    router.get("/events") { _ in
      .eventStream { stream in
        stream.send(event: "state", id: "1", data: #"{"version":1}"#)
        await stream.waitUntilClosed()
      }
    }
    try await withServer(configuration, router: router) { server in
      // Long enough for several 200 ms heartbeats even on a loaded machine.
      let result = try await curl(["-i", "-N", "--max-time", "3", "http://127.0.0.1:\(server.port)/events"])
      #expect(result.output.contains("Content-Type: text/event-stream"))
      #expect(result.output.contains("Cache-Control: no-cache, no-transform"))
      #expect(result.output.contains("X-Accel-Buffering: no"))
      #expect(!result.output.contains("Content-Length"))
      #expect(result.output.contains("event: state\nid: 1\ndata: {\"version\":1}\n\n"))
      #expect(result.output.contains(": ping\n\n"))
    }
  }

  @Test func handlerLearnsWhenTheClientLeavesAndTheStreamIsFreed() async throws {
    let observations = Observations()
    let weak = WeakStream()
    var router = Router()
    router.get("/events") { _ in
      .eventStream { stream in
        weak.set(stream)
        await stream.waitUntilClosed()
        observations.clientGone.store(true, ordering: .relaxed)
      }
    }
    try await withServer(router: router) { server in
      try await blocking {
        let client = try RawClient(port: server.port)
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read(until: "\r\n\r\n")
      }
      for _ in 0..<150 where !observations.clientGone.load(ordering: .relaxed) {
        try await Task.sleep(for: .milliseconds(20))
      }
      let gone = observations.clientGone.load(ordering: .relaxed)
      #expect(gone)
      #expect(server.connectionCount == 0)
      for _ in 0..<150 where weak.isAlive { try await Task.sleep(for: .milliseconds(20)) }
      #expect(!weak.isAlive)
    }
  }

  @Test func aStalledReaderNeverGrowsTheBufferAndIsDropped() async throws {
    let limit = 32 * 1024
    var configuration = testConfiguration()
    configuration.eventStreamBufferLimit = limit
    configuration.eventStreamStallTimeout = .milliseconds(500)
    let observations = Observations()
    let event = String(repeating: "x", count: 4000)
    var router = Router()
    router.get("/flood") { _ in
      .eventStream { stream in
        var version = 0
        while !stream.isClosed {
          // Bursts, so the kernel's socket buffers (which may grow to megabytes) fill
          // quickly however slowly this task is scheduled.
          for _ in 0..<64 {
            version += 1
            switch stream.sendLatest(event: "state", id: "\(version)", data: event) {
            case .sent: observations.sent.add(1, ordering: .relaxed)
            case .coalesced: observations.coalesced.add(1, ordering: .relaxed)
            case .backpressure, .closed, .tooLarge: break
            }
          }
          let peak = stream.peakBufferedBytes
          if peak > observations.peak.load(ordering: .relaxed) { observations.peak.store(peak, ordering: .relaxed) }
          try? await Task.sleep(for: .milliseconds(1))
        }
        observations.clientGone.store(true, ordering: .relaxed)
      }
    }
    try await withServer(configuration, router: router) { server in
      // A tiny receive window and no reads: the kernel's buffers fill, then the server's
      // bound is reached and the stream coalesces, then the server gives up on the client.
      // Connected and asked at once, on one thread: with every suite running, this task can
      // wait seconds for a thread, longer than the idle timeout of a connection that has
      // sent nothing.
      let client = try await blocking {
        let client = try RawClient(port: server.port, receiveBuffer: 2048)
        client.send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")
        return client
      }
      for _ in 0..<1500 where !observations.clientGone.load(ordering: .relaxed) {
        try await Task.sleep(for: .milliseconds(20))
      }
      let coalesced = observations.coalesced.load(ordering: .relaxed)
      let peak = observations.peak.load(ordering: .relaxed)
      let dropped = observations.clientGone.load(ordering: .relaxed)
      #expect(coalesced > 0)
      #expect(peak > 0 && peak <= limit)
      #expect(dropped)
      #expect(server.connectionCount == 0)
      withExtendedLifetime(client) {}
    }
  }
}
