import HTTP
import Synchronization

/// Sends each published version of one session's state to every client watching it, in
/// version order, with no gaps a client could notice and no version twice.
///
/// A client that keeps up gets every version: as a full `state` event, or with `?patch=1`
/// as a `patch` from the version it has. A client that falls behind gets the latest state
/// once it catches up ("latest wins"), never a growing queue. Reconnecting clients name the
/// last version they saw (`Last-Event-ID`) and get only what came after it.
final class EventFanout: Sendable {
  /// A watching client.
  private struct Client {
    let sink: any EventSink
    let patches: Bool
    /// Whether the client also wants `action` events.
    let log: Bool
    /// The last version queued for this client; it has or will get it.
    var lastQueued: Int?
    let onEnd: @Sendable () -> Void
  }

  private struct Fanout {
    var latest: PublishedState
    /// Recent versions, oldest first, for resuming clients.
    var history: [PublishedState]
    var clients: [UInt64: Client] = [:]
    var nextClientID: UInt64 = 0
    var logWatchers = 0
    var isClosed = false
  }

  private let historyLength: Int
  private let fanout: Mutex<Fanout>

  init(initial: PublishedState, historyLength: Int) {
    self.historyLength = max(historyLength, 1)
    self.fanout = Mutex(Fanout(latest: initial, history: [initial]))
  }

  /// The latest published version.
  var latest: PublishedState { fanout.withLock { $0.latest } }

  /// The number of clients watching.
  var clientCount: Int { fanout.withLock { $0.clients.count } }

  /// Whether any client watches the action log.
  var hasLogWatchers: Bool { fanout.withLock { $0.logWatchers > 0 } }

  /// Sends an `action` event to the clients watching the action log. Best effort: a client
  /// that is behind misses log entries, never state.
  func publishAction(_ data: String) {
    fanout.withLock { fanout in
      for client in fanout.clients.values where client.log {
        _ = client.sink.send(event: "action", id: nil, data: data)
      }
    }
  }

  /// Publishes a new version to every client. Versions must grow.
  func publish(_ state: PublishedState) {
    fanout.withLock { fanout in
      guard state.version > fanout.latest.version else { return }
      let previous = fanout.latest
      fanout.latest = state
      fanout.history.append(state)
      if fanout.history.count > historyLength { fanout.history.removeFirst(fanout.history.count - historyLength) }
      guard !fanout.clients.isEmpty else { return }
      var patchFromPrevious: String?
      for id in fanout.clients.keys {
        let client = fanout.clients[id]!
        if client.patches && client.lastQueued == previous.version {
          if patchFromPrevious == nil { patchFromPrevious = state.patchEventData(from: previous) }
          fanout.clients[id]!.lastQueued = deliver(patchFromPrevious!, event: "patch", state, to: client)
        } else if client.lastQueued == previous.version {
          fanout.clients[id]!.lastQueued = deliver(state.stateEventData, event: "state", state, to: client)
        } else {
          fanout.clients[id]!.lastQueued = deliverLatest(state, to: client)
        }
      }
    }
  }

  /// Adds a client and sends what it is missing: nothing when `lastEventID` is the latest
  /// version, a patch (or state) from `lastEventID` when it is a recent version, else the
  /// latest state. `onEnd` is called once if the fanout closes while the client watches.
  /// - Returns: The client's id, for ``disconnect(_:)``; `nil` if the fanout is closed.
  func connect(
    _ sink: any EventSink, patches: Bool, log: Bool = false, lastEventID: Int?,
    onEnd: @escaping @Sendable () -> Void
  ) -> UInt64? {
    fanout.withLock { fanout -> UInt64? in
      guard !fanout.isClosed else { return nil }
      let latest = fanout.latest
      var client = Client(sink: sink, patches: patches, log: log, lastQueued: nil, onEnd: onEnd)
      if let lastEventID, lastEventID == latest.version {
        client.lastQueued = latest.version
      } else if patches, let lastEventID, let seen = fanout.history.first(where: { $0.version == lastEventID }) {
        client.lastQueued = deliver(latest.patchEventData(from: seen), event: "patch", latest, to: client)
      } else {
        client.lastQueued = deliverLatest(latest, to: client)
      }
      defer { fanout.nextClientID += 1 }
      if log { fanout.logWatchers += 1 }
      fanout.clients[fanout.nextClientID] = client
      return fanout.nextClientID
    }
  }

  /// Removes a client.
  func disconnect(_ id: UInt64) {
    fanout.withLock { fanout in
      if fanout.clients.removeValue(forKey: id)?.log == true { fanout.logWatchers -= 1 }
    }
  }

  /// Ends every client's watch and refuses new ones: the session is gone.
  func close() {
    let ended = fanout.withLock { fanout -> [Client] in
      fanout.isClosed = true
      defer {
        fanout.clients = [:]
        fanout.logWatchers = 0
      }
      return Array(fanout.clients.values)
    }
    for client in ended { client.onEnd() }
  }

  /// Sends one event; when the client is behind, falls back to the latest full state.
  /// - Returns: The version the client is now known to get.
  private func deliver(
    _ data: String, event: String, _ state: PublishedState, to client: Client
  ) -> Int? {
    switch client.sink.send(event: event, id: String(state.version), data: data) {
    case .sent: state.version
    case .backpressure: deliverLatest(state, to: client)
    case .closed, .tooLarge, .coalesced: client.lastQueued
    }
  }

  /// Sends the full state, keeping it as the pending event if the client is behind.
  private func deliverLatest(_ state: PublishedState, to client: Client) -> Int? {
    switch client.sink.sendLatest(event: "state", id: String(state.version), data: state.stateEventData) {
    case .sent, .coalesced: state.version
    case .backpressure, .closed, .tooLarge: client.lastQueued
    }
  }
}
