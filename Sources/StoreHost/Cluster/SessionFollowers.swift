import Foundation
import HTTP
import StoreHostJSON
import Synchronization

/// The event streams of a clustered process: one ``EventFanout`` per watched session, fed
/// with every durable version the session's owner announces, whichever process owns it.
///
/// Every process, the owner included, streams from here, so a stream shows only durable
/// versions, in commit order, and keeps going when the session moves to another owner.
/// A session's first stream here reads its durable version in order with the
/// announcements (``SessionCluster/readInOrder(_:_:)``), so no version falls between the
/// read and the stream. `?log=1` streams get the owner's `action` events: the first one on
/// a session tells every process it is watched, and its owner announces its actions.
final class SessionFollowers: ClusterAnnouncementReceiver {
  private let cluster: any SessionCluster
  private let fanouts = Mutex<[SessionID: EventFanout]>([:])
  /// Streams about to connect to each fanout (see ``FollowHold``), taken under the lock of
  /// ``fanouts``: a fanout leaves once it has neither clients nor holds.
  private let holds = Mutex<[ObjectIdentifier: Int]>([:])
  /// The last published state of each followed session, to diff the next one against.
  private let lastStates = Mutex<[SessionID: JSONValue]>([:])
  private let historyLength: Int
  /// Tells the host when whether a session's actions are watched anywhere changed.
  private let onActionWatchChanged = Mutex<(@Sendable (SessionID, Bool) -> Void)?>(nil)

  init(cluster: any SessionCluster, historyLength: Int) {
    self.cluster = cluster
    self.historyLength = historyLength
  }

  /// Calls `action` each time whether a session's actions are watched anywhere changes.
  func whenActionWatchChanged(_ action: @escaping @Sendable (SessionID, Bool) -> Void) {
    onActionWatchChanged.withLock { $0 = action }
  }

  /// The number of clients watching any session from this process.
  var totalClientCount: Int { fanouts.withLock { $0.values.reduce(0) { $0 + $1.clientCount } } }

  /// The number of clients watching `id` from this process.
  func clientCount(_ id: SessionID) -> Int {
    fanouts.withLock { $0[id]?.clientCount ?? 0 }
  }

  /// Makes sure the session's fanout exists, so a stream can start, and holds it until the
  /// returned hold is released: by the stream's connecting, or, when the stream never opens
  /// (its client left first), when the hold goes.
  /// - Returns: `nil` when there is no such session.
  /// - Throws: ``HTTPError/databaseUnavailable()`` when its durable version cannot be read.
  func prepare(_ id: SessionID) async throws -> FollowHold? {
    while true {
      let held = fanouts.withLock { fanouts -> EventFanout? in
        guard let fanout = fanouts[id] else { return nil }
        holds.withLock { $0[ObjectIdentifier(fanout), default: 0] += 1 }
        return fanout
      }
      if let held { return FollowHold { [weak self] in self?.release(id, held) } }
      guard try await subscribe(id) else { return nil }
    }
  }

  /// The number of sessions this process follows for its streams.
  var followedCount: Int { fanouts.withLock { $0.count } }

  /// Ends a hold of ``prepare(_:)``; the fanout leaves when nothing else keeps it.
  private func release(_ id: SessionID, _ fanout: EventFanout) {
    fanouts.withLock { fanouts in
      let remaining = holds.withLock { holds in
        let remaining = (holds[ObjectIdentifier(fanout)] ?? 1) - 1
        holds[ObjectIdentifier(fanout)] = remaining > 0 ? remaining : nil
        return remaining
      }
      removeIfUnused(id, fanout, from: &fanouts, holds: remaining)
    }
  }

  /// Forgets `fanout` when it has no clients and no holds.
  private func removeIfUnused(_ id: SessionID, _ fanout: EventFanout, from fanouts: inout [SessionID: EventFanout], holds: Int) {
    guard holds <= 0, fanout.clientCount == 0, fanouts[id] === fanout else { return }
    fanouts[id] = nil
    lastStates.withLock { $0[id] = nil }
  }

  /// Adds a client to the session's fanout.
  ///
  /// A client resuming at a version this process has not heard of yet (its announcements
  /// lag behind the owner's commits) waits until the session's durable version is read, so
  /// it never goes back to an older version.
  /// - Returns: The fanout and the client's id, or `nil` when there is no such session.
  /// - Throws: ``HTTPError/databaseUnavailable()`` when its durable version cannot be read.
  func connect(
    _ id: SessionID, _ sink: any EventSink, patches: Bool, log: Bool, presence: Bool, everyone: Int,
    framing: EventFraming = .alone, lastEventID: Int?, onEnd: @escaping @Sendable () -> Void
  ) async throws -> (fanout: EventFanout, client: UInt64)? {
    if let lastEventID, let fanout = fanouts.withLock({ $0[id] }), fanout.latest.version < lastEventID {
      try? await catchUp(id, fanout: fanout)
    }
    while true {
      let connected = fanouts.withLock { fanouts -> (EventFanout, UInt64, isFirstLog: Bool)? in
        guard let fanout = fanouts[id],
          let client = fanout.connect(
            sink, patches: patches, log: log, presence: presence, everyone: everyone, framing: framing,
            lastEventID: lastEventID, onEnd: onEnd)
        else { return nil }
        return (fanout, client, log && fanout.logWatcherCount == 1)
      }
      if let (fanout, client, isFirstLog) = connected {
        if isFirstLog { cluster.watchActions(of: id, true) }
        return (fanout, client)
      }
      guard try await subscribe(id) else { return nil }
    }
  }

  /// Tells every followed session's presence watchers how many streams this process has open.
  func updateEveryone(_ count: Int) {
    for fanout in fanouts.withLock({ Array($0.values) }) { fanout.updateEveryone(count) }
  }

  /// Removes a client; the last one to leave ends the subscription.
  func disconnect(_ id: SessionID, fanout: EventFanout, client: UInt64) {
    let (hadLog, hasLog) = fanouts.withLock { fanouts in
      let before = fanout.logWatcherCount
      fanout.disconnect(client)
      removeIfUnused(id, fanout, from: &fanouts, holds: holds.withLock { $0[ObjectIdentifier(fanout)] ?? 0 })
      return (before > 0, fanout.logWatcherCount > 0)
    }
    if hadLog && !hasLog { cluster.watchActions(of: id, false) }
  }

  // MARK: ClusterAnnouncementReceiver

  var followedSessions: [SessionID] { fanouts.withLock { Array($0.keys) } }

  func isFollowing(_ id: SessionID) -> Bool {
    fanouts.withLock { $0[id] != nil }
  }

  func received(_ id: SessionID, _ version: DurableVersion) {
    guard let fanout = fanouts.withLock({ $0[id] }), version.version > fanout.latest.version else { return }
    publish(id: id, version, to: fanout)
  }

  func deleted(_ id: SessionID) {
    guard let fanout = fanouts.withLock({ $0[id] }) else { return }
    end(id, fanout: fanout)
  }

  func receivedAction(of id: SessionID, _ data: [UInt8]) {
    fanouts.withLock { $0[id] }?.publishAction(data)
  }

  func actionWatchChanged(of id: SessionID, watched: Bool) {
    onActionWatchChanged.withLock { $0 }?(id, watched)
  }

  // MARK: Internals

  /// Reads the session's durable version in order with the announcements and starts its
  /// fanout there, before the next announcement is delivered.
  /// - Returns: `false` when there is no such session.
  private func subscribe(_ id: SessionID) async throws -> Bool {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
      cluster.readInOrder(id) { [self] result in
        switch result {
        case .failure:
          continuation.resume(throwing: HTTPError.databaseUnavailable())
        case .success(nil):
          continuation.resume(returning: fanouts.withLock { $0[id] != nil })
        case .success(let durable?):
          guard let value = try? JSONValue(parsing: durable.state) else {
            return continuation.resume(throwing: HTTPError.databaseUnavailable())
          }
          fanouts.withLock { fanouts in
            guard fanouts[id] == nil else { return }
            lastStates.withLock { $0[id] = value }
            let initial = PublishedState(version: durable.version, json: durable.state)
            fanouts[id] = EventFanout(initial: initial, historyLength: historyLength)
          }
          continuation.resume(returning: true)
        }
      }
    }
  }

  /// Reads the session's durable version in order with the announcements, and publishes it
  /// when it is newer than what the fanout has.
  private func catchUp(_ id: SessionID, fanout: EventFanout) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      cluster.readInOrder(id) { [self] result in
        switch result {
        case .failure(let error):
          continuation.resume(throwing: error)
        case .success(nil):
          end(id, fanout: fanout)
          continuation.resume()
        case .success(let durable?):
          if durable.version > fanout.latest.version { publish(id: id, durable, to: fanout) }
          continuation.resume()
        }
      }
    }
  }

  /// Publishes the state with the patch from the last one published: this process only
  /// has the states' JSON, so the two documents are diffed whole.
  private func publish(id: SessionID, _ durable: DurableVersion, to fanout: EventFanout) {
    guard let value = try? JSONValue(parsing: durable.state) else { return }
    let previous = lastStates.withLock { states in
      defer { states[id] = value }
      return states[id]
    }
    let from = fanout.latest.version
    let patch = previous.flatMap { previous -> VersionPatch? in
      let operations = JSONPatch.diff(from: previous, to: value)
      guard let bytes = try? JSONEncoding.encode(operations) else { return nil }
      return VersionPatch(from: from, operations: bytes, operationCount: operations.count)
    }
    fanout.publish(PublishedState(version: durable.version, patch: patch, json: durable.state))
  }

  private func end(_ id: SessionID, fanout: EventFanout) {
    let ended = fanouts.withLock { fanouts in
      guard fanouts[id] === fanout else { return false }
      fanouts[id] = nil
      return true
    }
    if ended { lastStates.withLock { $0[id] = nil } }
    fanout.close()
  }
}

/// Keeps a followed session's fanout while a stream is about to connect to it; released when
/// it goes, so a stream that never opens leaves nothing behind.
final class FollowHold: Sendable {
  private let release: @Sendable () -> Void

  init(release: @escaping @Sendable () -> Void) {
    self.release = release
  }

  deinit { release() }
}
