import HTTP
import Synchronization

/// Sends each published version of one session's state to every client watching it, in
/// version order, with no gaps a client could notice and no version twice.
///
/// A client that keeps up gets every version: as a full `state` event, or with `?patch=1`
/// as a `patch` from the version it has. A client that falls behind gets the latest state
/// once it catches up ("latest wins"), never a growing queue. Reconnecting clients name the
/// last version they saw (`Last-Event-ID`) and get only what came after it.
///
/// Each event is one ``EventFrame`` made once per version, kind and framing, and handed to
/// every client as it is.
final class EventFanout: Sendable {
  /// A watching client.
  private struct Client {
    let id: UInt64
    let sink: any EventSink
    let patches: Bool
    /// Whether the client also wants `action` events.
    let log: Bool
    /// Whether the client also wants `presence` events.
    let presence: Bool
    let framing: EventFraming
    /// The last version queued for this client; it has or will get it.
    var lastQueued: Int?
    let onEnd: @Sendable () -> Void
  }

  /// A recent version and the patch that led to it.
  private struct Step {
    let version: Int
    let patch: VersionPatch?
  }

  private struct Fanout {
    var latest: PublishedState
    /// Recent versions, oldest first, for resuming clients.
    var history: [Step]
    /// The watching clients, in the order they connected.
    var clients: [Client] = []
    var nextClientID: UInt64 = 0
    var logWatchers = 0
    /// In a cluster, where this session's actions go for the `?log=1` streams of other processes.
    var remoteLog: (@Sendable ([UInt8]) -> Void)?
    var presenceWatchers = 0
    /// The event streams open on the whole server, as last told (``updateEveryone(_:)``).
    var everyone = 0
    var isClosed = false

    /// Sends a `presence` event to the clients that asked for them.
    func tellPresence() {
      guard presenceWatchers > 0 else { return }
      var frames = FramingCache(Array(#"{"session":\#(clients.count),"everyone":\#(everyone)}"#.utf8)) {
        EventFrame(event: "presence", data: $0)
      }
      for client in clients where client.presence { _ = client.sink.send(frames.frame(for: client.framing)) }
    }
  }

  private let historyLength: Int
  private let fanout: Mutex<Fanout>
  /// A resuming client gets the missed versions' patches joined when they are no larger than
  /// the state, or than this.
  private static let smallPatch = 4096

  init(initial: PublishedState, historyLength: Int) {
    self.historyLength = max(historyLength, 1)
    self.fanout = Mutex(Fanout(latest: initial, history: [Step(version: initial.version, patch: nil)]))
  }

  /// The latest published version.
  var latest: PublishedState { fanout.withLock { $0.latest } }

  /// The number of clients watching.
  var clientCount: Int { fanout.withLock { $0.clients.count } }

  /// Whether any client watches the action log, here or (in a cluster) in another process.
  var hasLogWatchers: Bool { fanout.withLock { $0.logWatchers > 0 || $0.remoteLog != nil } }

  /// The number of clients here that watch the action log.
  var logWatcherCount: Int { fanout.withLock { $0.logWatchers } }

  /// Sets where the session's actions go for the `?log=1` streams of other processes
  /// (`nil`: none watches), besides this fanout's own clients.
  func setRemoteLog(_ remoteLog: (@Sendable ([UInt8]) -> Void)?) {
    fanout.withLock { $0.remoteLog = remoteLog }
  }

  /// Takes the number of event streams open on the whole server; the clients watching
  /// presence hear of a change.
  func updateEveryone(_ count: Int) {
    fanout.withLock { fanout in
      guard fanout.everyone != count else { return }
      fanout.everyone = count
      fanout.tellPresence()
    }
  }

  /// Sends an `action` event to the clients watching the action log. Best effort: a client
  /// that is behind misses log entries, never state.
  func publishAction(_ data: [UInt8]) {
    var frames = FramingCache(data) { EventFrame(event: "action", data: $0) }
    let remoteLog = fanout.withLock { fanout in
      for client in fanout.clients where client.log {
        _ = client.sink.send(frames.frame(for: client.framing))
      }
      return fanout.remoteLog
    }
    remoteLog?(data)
  }

  /// Publishes a new version to every client. Versions must grow.
  func publish(_ state: PublishedState) {
    fanout.withLock { fanout in
      guard state.version > fanout.latest.version else { return }
      let previous = fanout.latest.version
      fanout.latest = state
      // The oldest goes before the newest comes, so the array never grows past the length kept.
      if fanout.history.count >= historyLength { fanout.history.removeFirst(fanout.history.count - historyLength + 1) }
      fanout.history.append(Step(version: state.version, patch: state.patch))
      var frames = Frames(state)
      for index in fanout.clients.indices {
        let client = fanout.clients[index]
        guard client.lastQueued == previous else {
          fanout.clients[index].lastQueued = deliverLatest(&frames, to: client)
          continue
        }
        let frame =
          client.patches && state.patch?.from == previous
          ? frames.patch(for: client.framing) : frames.stateFrame(for: client.framing)
        fanout.clients[index].lastQueued = frame.flatMap { deliver($0, &frames, to: client) } ?? client.lastQueued
      }
    }
  }

  /// The events of one version, each made once per framing, when the first client needs it.
  private struct Frames {
    let state: PublishedState
    private var madeState = FramedOnce<EventFrame?>()
    private var madePatch = FramedOnce<EventFrame?>()

    init(_ state: PublishedState) { self.state = state }

    /// The `state` event; `nil` when the state cannot be encoded.
    mutating func stateFrame(for framing: EventFraming) -> EventFrame? {
      madeState.value(for: framing) { [state] in state.stateFrame(framing) }
    }

    /// The `patch` event from the previous version.
    mutating func patch(for framing: EventFraming) -> EventFrame? {
      madePatch.value(for: framing) { [state] in state.patchFrame(framing) }
    }
  }

  /// One event's data, framed once per framing its clients ask for.
  private struct FramingCache {
    let data: [UInt8]
    let make: ([UInt8]) -> EventFrame
    private var made = FramedOnce<EventFrame>()

    init(_ data: [UInt8], make: @escaping ([UInt8]) -> EventFrame) {
      self.data = data
      self.make = make
    }

    mutating func frame(for framing: EventFraming) -> EventFrame {
      made.value(for: framing) { [data, make] in make(framing.data(data)) }
    }
  }

  /// Adds a client and sends what it is missing: nothing when `lastEventID` is the latest
  /// version, a patch from `lastEventID` when the recent versions lead from it to the
  /// latest, else the latest state. With `presence`, the client also gets a `presence`
  /// event now and whenever the number of this session's clients, or `everyone` (the
  /// session watches open on the server, counting this one), changes. `framing` says whether the
  /// client's stream carries this session alone. `onEnd` is called once if the fanout closes
  /// while the client watches.
  /// - Returns: The client's id, for ``disconnect(_:)``; `nil` if the fanout is closed.
  func connect(
    _ sink: any EventSink, patches: Bool, log: Bool = false, presence: Bool = false, everyone: Int = 0,
    framing: EventFraming = .alone, lastEventID: Int?, onEnd: @escaping @Sendable () -> Void
  ) -> UInt64? {
    fanout.withLock { fanout -> UInt64? in
      guard !fanout.isClosed else { return nil }
      let latest = fanout.latest
      var client = Client(
        id: fanout.nextClientID, sink: sink, patches: patches, log: log, presence: presence, framing: framing,
        lastQueued: nil, onEnd: onEnd)
      if let lastEventID, lastEventID == latest.version {
        client.lastQueued = latest.version
      } else if patches, let lastEventID, let patch = Self.patch(from: lastEventID, in: fanout.history),
        patch.operations.count <= max(Self.smallPatch, (try? latest.json().count) ?? 0)
      {
        var frames = Frames(latest)
        client.lastQueued = deliver(patch.frame(to: latest.version, framing), &frames, to: client)
      } else {
        var frames = Frames(latest)
        client.lastQueued = deliverLatest(&frames, to: client)
      }
      defer { fanout.nextClientID += 1 }
      if log { fanout.logWatchers += 1 }
      if presence { fanout.presenceWatchers += 1 }
      fanout.clients.append(client)
      if presence { fanout.everyone = everyone }
      fanout.tellPresence()
      return client.id
    }
  }

  /// Removes a client.
  func disconnect(_ id: UInt64) {
    fanout.withLock { fanout in
      guard let index = fanout.clients.firstIndex(where: { $0.id == id }) else { return }
      let client = fanout.clients.remove(at: index)
      if client.log { fanout.logWatchers -= 1 }
      if client.presence { fanout.presenceWatchers -= 1 }
      fanout.tellPresence()
    }
  }

  /// Ends every client's watch and refuses new ones: the session is gone.
  func close() {
    let ended = fanout.withLock { fanout -> [Client] in
      fanout.isClosed = true
      defer {
        fanout.clients = []
        fanout.logWatchers = 0
        fanout.presenceWatchers = 0
      }
      return fanout.clients
    }
    for client in ended { client.onEnd() }
  }

  /// The patches of the recent versions after `version`, joined, when they lead from it to
  /// the latest without a gap.
  private static func patch(from version: Int, in history: [Step]) -> VersionPatch? {
    guard let start = history.firstIndex(where: { $0.version == version }) else { return nil }
    var joined: VersionPatch?
    var reached = version
    for step in history[(start + 1)...] {
      guard let patch = step.patch, patch.from == reached else { return nil }
      joined = joined.map { $0.followed(by: patch) } ?? patch
      reached = step.version
    }
    return joined
  }

  /// Sends one event; when the client is behind, falls back to the latest full state.
  /// - Returns: The version the client is now known to get.
  private func deliver(_ frame: EventFrame, _ frames: inout Frames, to client: Client) -> Int? {
    switch client.sink.send(frame) {
    case .sent: frames.state.version
    case .backpressure: deliverLatest(&frames, to: client)
    case .closed, .tooLarge, .coalesced: client.lastQueued
    }
  }

  /// Sends the full state, keeping it as the pending event if the client is behind.
  private func deliverLatest(_ frames: inout Frames, to client: Client) -> Int? {
    guard let frame = frames.stateFrame(for: client.framing) else { return client.lastQueued }
    switch client.sink.sendLatest(frame) {
    case .sent, .coalesced: return frames.state.version
    case .backpressure, .closed, .tooLarge: return client.lastQueued
    }
  }
}
