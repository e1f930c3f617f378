import Synchronization
import Testing

@testable import HTTP

/// Takes what a stream queues for its connection each time it asks to be served, as the
/// connection's event loop does.
private final class Sink: Sendable {
  let frames = Mutex<[[UInt8]]>([])
  let finished = Mutex(false)
  let stream = Mutex<EventStream?>(nil)
  var text: [String] { frames.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }
  var count: Int { frames.withLock { $0.count } }

  func serve() {
    guard let stream = stream.withLock({ $0 }) else { return }
    var taken: [EventFrame] = []
    if stream.takeOutbox(into: &taken) { finished.withLock { $0 = true } }
    frames.withLock { $0 += taken.map(\.bytes) }
  }
}

private func makeStream(limit: Int) -> (EventStream, Sink) {
  let sink = Sink()
  let stream = EventStream(bufferLimit: limit) { sink.serve() }
  sink.stream.withLock { $0 = stream }
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

  @Test func eachSlotKeepsItsOwnLatestEventWhileTheClientIsBehind() {
    let (stream, sink) = makeStream(limit: 80)
    stream.send(data: String(repeating: "a", count: 40))
    #expect(stream.sendLatest(EventFrame(id: "1", data: String(repeating: "b", count: 20)), slot: 1) == .coalesced)
    #expect(stream.sendLatest(EventFrame(id: "2", data: String(repeating: "c", count: 20)), slot: 2) == .coalesced)
    #expect(stream.sendLatest(EventFrame(id: "3", data: String(repeating: "d", count: 20)), slot: 1) == .coalesced)
    // A plain send never overtakes what is pending.
    #expect(stream.send(data: "e") == .backpressure)
    stream.didWrite(stream.bufferedBytes)
    // Slot 1 was kept first, so it goes first, with its latest event; both fit.
    #expect(sink.text.dropFirst().map { $0.prefix(5) } == ["id: 3", "id: 2"])
    #expect(stream.peakBufferedBytes <= 80)
  }

  @Test func pendingSlotsAreWrittenAsRoomAllows() {
    let (stream, sink) = makeStream(limit: 40)
    stream.send(data: String(repeating: "a", count: 20))
    stream.sendLatest(EventFrame(id: "1", data: String(repeating: "b", count: 20)), slot: 1)
    stream.sendLatest(EventFrame(id: "2", data: String(repeating: "c", count: 20)), slot: 2)
    stream.didWrite(stream.bufferedBytes)
    #expect(sink.count == 2, "only one pending event fits at once")
    stream.didWrite(stream.bufferedBytes)
    #expect(sink.text.last?.hasPrefix("id: 2") == true)
    #expect(stream.stalledSince == nil)
  }

  @Test func oneFrameIsSharedByEveryStream() {
    let frame = EventFrame(event: "patch", id: "3", data: Array(#"{"ops":[]}"#.utf8))
    let streams = (0..<3).map { _ in makeStream(limit: 1024) }
    for (stream, _) in streams { #expect(stream.send(frame) == .sent) }
    for (_, sink) in streams { #expect(sink.text == ["event: patch\nid: 3\ndata: {\"ops\":[]}\n\n"]) }
    #expect(frame.count == 37)
  }

  @Test func dataLineBreaksOfEveryKindStartNewDataLines() {
    let frame = EventFrame(data: "a\r\nb\rc\nd")
    #expect(String(decoding: frame.bytes, as: UTF8.self) == "data: a\ndata: b\ndata: c\ndata: d\n\n")
  }

  @Test func finishingRefusesNewEventsAndTellsTheConnection() {
    let (stream, sink) = makeStream(limit: 1024)
    stream.send(data: "last")
    stream.finish()
    #expect(stream.send(data: "late") == .closed)
    #expect(sink.finished.withLock { $0 })
    #expect(sink.text == ["data: last\n\n"])
  }

  @Test func closeHandlersRunOnceWhenTheStreamCloses() {
    let (stream, _) = makeStream(limit: 40)
    let calls = Mutex(0)
    stream.onClose { calls.withLock { $0 += 1 } }
    stream.markClosed()
    stream.markClosed()
    #expect(calls.withLock { $0 } == 1)
    stream.onClose { calls.withLock { $0 += 1 } }
    #expect(calls.withLock { $0 } == 2)
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
