import HTTP
import Synchronization

/// One stream that carries several sessions' events (`GET /api/events`): each session on a
/// "latest wins" slot of its own, so a client that falls behind gets every session's latest
/// state, none pushing out another's; and each watch stopped once, when its session leaves
/// the stream or the stream closes.
final class MultiplexedStream: Sendable {
  let stream: EventStream
  private let watches = Mutex<Watches>(Watches())

  private struct Watches {
    var isClosed = false
    var stops: [SessionID: @Sendable () -> Void] = [:]
  }

  /// Where one session's events go: the stream, with that session's slot for "latest wins".
  final class Slot: EventSink {
    let stream: EventStream
    let slot: Int

    init(stream: EventStream, slot: Int) {
      self.stream = stream
      self.slot = slot
    }

    func send(_ frame: EventFrame) -> EventStream.SendResult { stream.send(frame) }
    func sendLatest(_ frame: EventFrame) -> EventStream.SendResult { stream.sendLatest(frame, slot: slot) }
  }

  /// Stops every watch when `stream` closes.
  init(_ stream: EventStream) {
    self.stream = stream
    stream.onClose { [self] in
      let stops = watches.withLock { watches in
        watches.isClosed = true
        defer { watches.stops = [:] }
        return Array(watches.stops.values)
      }
      for stop in stops { stop() }
    }
  }

  /// The sink of the session watched at `slot` (its index in the request).
  func sink(slot: Int) -> Slot { Slot(stream: stream, slot: slot) }

  /// Keeps `stop` until the session leaves or the stream closes; calls it now if the stream
  /// has closed already.
  func started(_ id: SessionID, stop: @escaping @Sendable () -> Void) {
    let stopNow = watches.withLock { watches in
      if watches.isClosed { return true }
      watches.stops[id] = stop
      return false
    }
    if stopNow { stop() }
  }

  /// The session leaves the stream, which says so: `event: dropped` with
  /// `{"id", "status", "error": {"code", "message"}}`, on the session's slot so it is never
  /// refused. Its watch stops, if it started.
  func drop(_ id: SessionID, slot: Int, because error: HTTPError) {
    let stop = watches.withLock { $0.stops.removeValue(forKey: id) }
    stop?()
    let data = Array(#"{"status":\#(error.status),"#.utf8) + error.body.dropFirst()
    stream.sendLatest(EventFrame(event: "dropped", data: EventFraming.multiplexed(id).data(data)), slot: slot)
  }
}
