import Synchronization
import Testing

@testable import HTTP

/// Collects what a stream hands to its connection.
private final class Sink: Sendable {
  let frames = Mutex<[[UInt8]]>([])
  var text: [String] { frames.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }
  var count: Int { frames.withLock { $0.count } }
}

private func makeStream(limit: Int) -> (EventStream, Sink) {
  let sink = Sink()
  let stream = EventStream(bufferLimit: limit) { bytes in sink.frames.withLock { $0.append(bytes) } }
  return (stream, sink)
}

@Suite struct EventStreamTests {
  @Test func formatsEventsAndComments() {
    let (stream, sink) = makeStream(limit: 1024)
    #expect(stream.send(event: "state", id: "7", data: "a\nb") == .sent)
    #expect(stream.comment("ping") == .sent)
    #expect(sink.text == ["event: state\nid: 7\ndata: a\ndata: b\n\n", ": ping\n\n"])
  }

  @Test func fieldsCannotInjectLines() {
    let (stream, sink) = makeStream(limit: 1024)
    stream.send(event: "x\ndata: evil", data: "ok")
    #expect(sink.text == ["event: xdata: evil\ndata: ok\n\n"])
  }

  @Test func refusesSendsBeyondTheBound() {
    let (stream, sink) = makeStream(limit: 40)
    #expect(stream.send(data: String(repeating: "a", count: 20)) == .sent)
    #expect(stream.send(data: String(repeating: "b", count: 20)) == .backpressure)
    #expect(sink.count == 1)
    #expect(stream.bufferedBytes <= 40)
    #expect(stream.stalledSince != nil)
  }

  @Test func anEventLargerThanTheBoundIsRefusedWithoutStalling() {
    let (stream, sink) = makeStream(limit: 40)
    #expect(stream.sendLatest(data: String(repeating: "a", count: 50)) == .tooLarge)
    #expect(sink.count == 0)
    #expect(stream.stalledSince == nil)
  }

  @Test func latestWinsWhileTheClientIsBehind() {
    let (stream, sink) = makeStream(limit: 40)
    stream.send(data: String(repeating: "a", count: 20))
    #expect(stream.sendLatest(id: "1", data: String(repeating: "b", count: 20)) == .coalesced)
    #expect(stream.sendLatest(id: "2", data: String(repeating: "c", count: 20)) == .coalesced)
    #expect(sink.count == 1)
    stream.didWrite(stream.bufferedBytes)
    #expect(sink.count == 2)
    #expect(sink.text.last?.contains("id: 2") == true)
    #expect(stream.stalledSince == nil)
    #expect(stream.peakBufferedBytes <= 40)
  }

  @Test func closedStreamsRefuseAndWakeWaiters() async {
    let (stream, _) = makeStream(limit: 40)
    async let waited: Void = stream.waitUntilClosed()
    stream.markClosed()
    await waited
    #expect(stream.isClosed)
    #expect(stream.send(data: "x") == .closed)
  }
}
