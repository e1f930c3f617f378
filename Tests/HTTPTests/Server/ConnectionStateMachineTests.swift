import Testing

@testable import HTTP

@Suite struct ConnectionStateMachineTests {
  let start = MonotonicInstant.now
  var limits: HTTPLimits {
    var limits = HTTPLimits()
    limits.idleTimeout = .seconds(5)
    limits.requestHeadTimeout = .seconds(2)
    limits.requestBodyTimeout = .seconds(3)
    return limits
  }

  private func targets(_ actions: [ConnectionStateMachine.Action]) -> [String] {
    actions.compactMap {
      if case .dispatch(let head, _) = $0 { return head.target }
      return nil
    }
  }

  @Test func dispatchesACompleteRequestWithItsBody() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    let actions = machine.received(Array("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi".utf8), now: start)
    guard case .dispatch(let head, let body) = actions.first else {
      Issue.record("expected a dispatch, got \(actions)")
      return
    }
    #expect(head.target == "/a")
    #expect(body == Array("hi".utf8))
  }

  @Test func answersPipelinedRequestsOneAtATimeInOrder() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    let first = machine.received(
      Array(
        "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
      now: start)
    #expect(targets(first) == ["/1"])
    #expect(targets(machine.responseFinished(keepAlive: true, now: start)) == ["/2"])
    #expect(targets(machine.responseFinished(keepAlive: true, now: start)) == ["/3"])
    #expect(machine.responseFinished(keepAlive: true, now: start).isEmpty)
  }

  @Test func closesAfterAResponseThatEndsTheConnection() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    _ = machine.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start)
    #expect(machine.responseFinished(keepAlive: false, now: start) == [.close])
  }

  @Test func sendsContinueBeforeReadingAnExpectedBody() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    let actions = machine.received(
      Array("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n".utf8), now: start)
    #expect(actions == [.write(ConnectionStateMachine.continueResponse)])
    #expect(targets(machine.received(Array("abc".utf8), now: start)) == ["/"])
  }

  @Test func failsASlowHeadWith408() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    #expect(machine.received(Array("GET / HTTP/1.1\r\nHo".utf8), now: start).isEmpty)
    #expect(machine.tick(now: start + .seconds(1)).isEmpty)
    #expect(machine.tick(now: start + .seconds(2)) == [.fail(ConnectionStateMachine.requestTimeout)])
  }

  @Test func failsASlowBodyWith408() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    _ = machine.received(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nab".utf8), now: start)
    #expect(machine.tick(now: start + .seconds(2)).isEmpty)
    #expect(machine.tick(now: start + .seconds(3)) == [.fail(ConnectionStateMachine.requestTimeout)])
  }

  @Test func closesAnIdleConnectionSilently() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    #expect(machine.tick(now: start + .seconds(4)).isEmpty)
    #expect(machine.tick(now: start + .seconds(5)) == [.close])
  }

  @Test func noTimeoutWhileAHandlerResponds() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    let actions = machine.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start)
    #expect(targets(actions) == ["/"])
    #expect(machine.tick(now: start + .seconds(60)).isEmpty)
  }

  @Test func malformedInputFailsAndStops() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    let actions = machine.received(Array("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n".utf8), now: start)
    guard case .fail(let error) = actions.first else {
      Issue.record("expected a failure, got \(actions)")
      return
    }
    #expect(error.status == 400)
    #expect(machine.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start).isEmpty)
  }

  @Test func drainingClosesIdleConnectionsAndFinishesInFlightOnes() {
    var idle = ConnectionStateMachine(limits: limits, now: start)
    #expect(idle.startDraining() == [.close])
    var busy = ConnectionStateMachine(limits: limits, now: start)
    _ = busy.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start)
    #expect(busy.startDraining().isEmpty)
    #expect(busy.responseFinished(keepAlive: true, now: start) == [.close])
  }

  @Test func halfClosedClientStillGetsItsAnswers() {
    var machine = ConnectionStateMachine(limits: limits, now: start)
    _ = machine.received(Array("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start)
    #expect(machine.inputEnded(now: start).isEmpty)
    #expect(targets(machine.responseFinished(keepAlive: true, now: start)) == ["/2"])
    #expect(machine.responseFinished(keepAlive: true, now: start) == [.close])
  }

  @Test func pausesReadingWhenTooMuchIsPipelined() {
    var small = limits
    small.maxHeadBytes = 64
    small.maxBodyBytes = 16
    var machine = ConnectionStateMachine(limits: small, now: start)
    _ = machine.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start)
    #expect(machine.received([UInt8](repeating: 0x41, count: 100), now: start) == [.pauseReading])
    #expect(machine.responseFinished(keepAlive: true, now: start).first == .resumeReading)
  }
}
