import Foundation
import HTTP
import Synchronization
import Testing

@testable import StoreHost

/// A client that records events and can pretend to fall behind.
private final class FakeSink: EventSink {
  struct Event: Equatable {
    var event: String?
    var id: String?
    var data: String

    /// The fields of one frame: `event: `, `id: ` and `data: ` lines.
    init(_ frame: EventFrame) {
      var data: [String] = []
      for line in String(decoding: frame.bytes, as: UTF8.self).split(separator: "\n") {
        if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
        if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
        if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
      }
      self.data = data.joined(separator: "\n")
    }
  }

  private let state = Mutex<(events: [Event], pending: Event?, isBehind: Bool)>(([], nil, false))

  var events: [Event] { state.withLock { $0.events } }
  var pending: Event? { state.withLock { $0.pending } }

  func fallBehind() { state.withLock { $0.isBehind = true } }

  /// The client catches up: the pending event is written.
  func catchUp() {
    state.withLock { state in
      state.isBehind = false
      if let pending = state.pending { state.events.append(pending) }
      state.pending = nil
    }
  }

  func send(_ frame: EventFrame) -> EventStream.SendResult {
    state.withLock { state in
      guard !state.isBehind, state.pending == nil else { return .backpressure }
      state.events.append(Event(frame))
      return .sent
    }
  }

  func sendLatest(_ frame: EventFrame) -> EventStream.SendResult {
    state.withLock { state in
      let new = Event(frame)
      guard !state.isBehind, state.pending == nil else {
        state.pending = new
        return .coalesced
      }
      state.events.append(new)
      return .sent
    }
  }
}

/// Version `version` of `{"counter": {"count": count}}`, with the patch from the version
/// before unless `withPatch` is false.
private func published(_ version: Int, count: Int64, withPatch: Bool = true) -> PublishedState {
  let patch = VersionPatch(
    from: version - 1, operations: Array(#"[{"op":"replace","path":"/counter/count","value":\#(count)}]"#.utf8),
    operationCount: 1)
  return PublishedState(
    version: version, patch: withPatch ? patch : nil, json: Array(#"{"counter":{"count":\#(count)}}"#.utf8))
}

@Suite struct EventFanoutTests {
  @Test func aNewClientGetsTheLatestStateThenEachVersion() {
    let fanout = EventFanout(initial: published(3, count: 3), historyLength: 8)
    let sink = FakeSink()
    _ = fanout.connect(sink, patches: false, lastEventID: nil) {}
    fanout.publish(published(4, count: 4))
    #expect(sink.events.map(\.id) == ["3", "4"])
    #expect(sink.events.map(\.event) == ["state", "state"])
    #expect(sink.events[1].data == #"{"version":4,"state":{"counter":{"count":4}}}"#)
  }

  @Test func patchClientsGetPatchesFromTheVersionTheyHave() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let sink = FakeSink()
    _ = fanout.connect(sink, patches: true, lastEventID: nil) {}
    fanout.publish(published(2, count: 2))
    #expect(sink.events.map(\.event) == ["state", "patch"])
    let patch = try? JSONValue(parsing: Data(sink.events[1].data.utf8))
    #expect(
      patch
        == [
          "version": 2, "from": 1,
          "ops": [["op": "replace", "path": "/counter/count", "value": 2]],
        ])
  }

  @Test func resumingSendsOnlyWhatCameAfterLastEventID() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    for version in 2...5 { fanout.publish(published(version, count: Int64(version))) }
    let upToDate = FakeSink()
    _ = fanout.connect(upToDate, patches: true, lastEventID: 5) {}
    #expect(upToDate.events.isEmpty)
    let behind = FakeSink()
    _ = fanout.connect(behind, patches: true, lastEventID: 3) {}
    #expect(behind.events.map(\.event) == ["patch"])
    #expect(behind.events[0].data.contains(#""from":3"#))
    let unknown = FakeSink()
    _ = fanout.connect(unknown, patches: true, lastEventID: 42) {}
    #expect(unknown.events.map(\.event) == ["state"])
    #expect(unknown.events[0].id == "5")
  }

  @Test func resumingJoinsThePatchesOfTheVersionsMissed() throws {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    for version in 2...4 { fanout.publish(published(version, count: Int64(version))) }
    let behind = FakeSink()
    _ = fanout.connect(behind, patches: true, lastEventID: 2) {}
    let patch = try JSONValue(parsing: Array(behind.events[0].data.utf8))
    #expect(patch["from"] == 2 && patch["version"] == 4)
    #expect(patch["ops"] == [["op": "replace", "path": "/counter/count", "value": 3], ["op": "replace", "path": "/counter/count", "value": 4]])
  }

  @Test func aVersionWithoutAPatchSendsTheStateToPatchClients() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let sink = FakeSink()
    _ = fanout.connect(sink, patches: true, lastEventID: 1) {}
    fanout.publish(published(2, count: 2, withPatch: false))
    #expect(sink.events.map(\.event) == ["state"])
    let resumed = FakeSink()
    _ = fanout.connect(resumed, patches: true, lastEventID: 1) {}
    #expect(resumed.events.map(\.event) == ["state"])
  }

  @Test func aSlowClientGetsTheLatestStateInsteadOfAQueue() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let slow = FakeSink()
    let fast = FakeSink()
    _ = fanout.connect(slow, patches: true, lastEventID: nil) {}
    _ = fanout.connect(fast, patches: true, lastEventID: nil) {}
    slow.fallBehind()
    for version in 2...20 { fanout.publish(published(version, count: Int64(version))) }
    #expect(fast.events.count == 20)
    #expect(slow.events.count == 1)
    #expect(slow.pending?.id == "20")
    slow.catchUp()
    fanout.publish(published(21, count: 21))
    #expect(slow.events.map(\.id) == ["1", "20", "21"])
    #expect(slow.events[2].event == "patch")
    #expect(slow.events[2].data.contains(#""from":20"#))
  }

  @Test func closingEndsEveryWatchAndRefusesNewOnes() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let ended = Mutex(0)
    _ = fanout.connect(FakeSink(), patches: false, lastEventID: nil) { ended.withLock { $0 += 1 } }
    _ = fanout.connect(FakeSink(), patches: false, lastEventID: nil) { ended.withLock { $0 += 1 } }
    fanout.close()
    #expect(ended.withLock { $0 } == 2)
    #expect(fanout.connect(FakeSink(), patches: false, lastEventID: nil) {} == nil)
    #expect(fanout.clientCount == 0)
  }

  @Test func clientsOnAStreamOfSeveralSessionsGetEventsNamingTheSession() throws {
    let id = try #require(SessionID("abc"))
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let alone = FakeSink()
    let multiplexed = FakeSink()
    _ = fanout.connect(alone, patches: true, lastEventID: 1) {}
    _ = fanout.connect(multiplexed, patches: true, log: true, presence: true, framing: .multiplexed(id), lastEventID: nil) {}
    fanout.publish(published(2, count: 2))
    fanout.publishAction(Array(#"{"action":"x"}"#.utf8))
    #expect(alone.events.map(\.id) == ["2"])
    #expect(multiplexed.events.map(\.event) == ["state", "presence", "patch", "action"])
    #expect(multiplexed.events.allSatisfy { $0.id == nil })
    #expect(multiplexed.events[0].data == #"{"id":"abc","version":1,"state":{"counter":{"count":1}}}"#)
    #expect(multiplexed.events[1].data == #"{"id":"abc","session":2,"everyone":0}"#)
    #expect(
      multiplexed.events[2].data
        == #"{"id":"abc","version":2,"from":1,"ops":[{"op":"replace","path":"/counter/count","value":2}]}"#)
    #expect(multiplexed.events[3].data == #"{"id":"abc","action":"x"}"#)
  }

  @Test func logWatchersGetActionEvents() {
    let fanout = EventFanout(initial: published(1, count: 1), historyLength: 8)
    let watcher = FakeSink()
    let plain = FakeSink()
    let id = fanout.connect(watcher, patches: false, log: true, lastEventID: 1) {}
    _ = fanout.connect(plain, patches: false, lastEventID: 1) {}
    #expect(fanout.hasLogWatchers)
    fanout.publishAction(Array(#"{"action":"x"}"#.utf8))
    #expect(watcher.events.map(\.event) == ["action"])
    #expect(plain.events.isEmpty)
    fanout.disconnect(id!)
    #expect(!fanout.hasLogWatchers)
  }
}
