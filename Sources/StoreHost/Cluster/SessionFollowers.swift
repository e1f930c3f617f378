import Foundation
import HTTP
import StoreHostJSON
import Synchronization

/// The event streams of a clustered process: one ``EventFanout`` per watched session, fed
/// with every durable version the session's owner announces, whichever process owns it.
///
/// Every process, the owner included, streams from here, so a stream shows only durable
/// versions, in commit order, and keeps going when the session moves to another owner.
/// A notification that carries the state is published as is; one without (the state did
/// not fit in the payload) is completed by reading the row on the listener's connection
/// before the next notification is handled, so order holds either way.
final class SessionFollowers: Sendable {
  private let fanouts = Mutex<[SessionID: EventFanout]>([:])
  /// The last published state of each followed session, to diff the next one against.
  private let lastStates = Mutex<[SessionID: JSONValue]>([:])
  private let historyLength: Int

  init(historyLength: Int) {
    self.historyLength = historyLength
  }

  /// The number of clients watching any session from this process.
  var totalClientCount: Int { fanouts.withLock { $0.values.reduce(0) { $0 + $1.clientCount } } }

  /// The number of clients watching `id` from this process.
  func clientCount(_ id: SessionID) -> Int {
    fanouts.withLock { $0[id]?.clientCount ?? 0 }
  }

  /// Makes sure the session's fanout exists, so a stream can start.
  /// - Returns: `false` when there is no such session.
  /// - Throws: ``HTTPError/databaseUnavailable()`` while the listener has no connection.
  func prepare(_ id: SessionID, listener: PostgresListener) async throws -> Bool {
    if fanouts.withLock({ $0[id] != nil }) { return true }
    return try await subscribe(id, listener: listener)
  }

  /// Adds a client to the session's fanout.
  ///
  /// A first client subscribes through the listener's thread: the session's row is read
  /// there, ordered with the notifications, so no version falls between the read and the
  /// stream.
  /// A client resuming at a version this process has not heard of yet (its notifications
  /// lag behind the owner's commits) waits until the session's row is read, so it never
  /// goes back to an older version.
  /// - Returns: The fanout and the client's id, or `nil` when there is no such session.
  /// - Throws: ``HTTPError/databaseUnavailable()`` while the listener has no connection.
  func connect(
    _ id: SessionID, listener: PostgresListener, _ sink: any EventSink, patches: Bool, log: Bool, presence: Bool,
    everyone: Int, framing: EventFraming = .alone, lastEventID: Int?, onEnd: @escaping @Sendable () -> Void
  ) async throws -> (fanout: EventFanout, client: UInt64)? {
    if let lastEventID, let fanout = fanouts.withLock({ $0[id] }), fanout.latest.version < lastEventID {
      await catchUp(id, fanout: fanout, listener: listener)
    }
    while true {
      let connected = fanouts.withLock { fanouts -> (EventFanout, UInt64)? in
        guard let fanout = fanouts[id],
          let client = fanout.connect(
            sink, patches: patches, log: log, presence: presence, everyone: everyone, framing: framing,
            lastEventID: lastEventID, onEnd: onEnd)
        else { return nil }
        return (fanout, client)
      }
      if let connected { return connected }
      guard try await subscribe(id, listener: listener) else { return nil }
    }
  }

  /// Tells every followed session's presence watchers how many streams this process has open.
  func updateEveryone(_ count: Int) {
    for fanout in fanouts.withLock({ Array($0.values) }) { fanout.updateEveryone(count) }
  }

  /// Removes a client; the last one to leave ends the subscription.
  func disconnect(_ id: SessionID, fanout: EventFanout, client: UInt64) {
    fanouts.withLock { fanouts in
      fanout.disconnect(client)
      if fanout.clientCount == 0, fanouts[id] === fanout {
        fanouts[id] = nil
        lastStates.withLock { $0[id] = nil }
      }
    }
  }

  /// Publishes an announced version to the session's streams, if any watch it here.
  func received(payload: String, on connection: PostgresConnection) {
    guard let notification = SessionNotification(payload: payload),
      let fanout = fanouts.withLock({ $0[notification.id] }),
      notification.version > fanout.latest.version || notification.version == SessionNotification.deletedVersion
    else { return }
    if let state = notification.state {
      publish(id: notification.id, version: notification.version, state: state, to: fanout)
    } else {
      refresh(notification.id, fanout: fanout, on: connection)
    }
  }

  /// Re-reads every watched session after the listener missed notifications.
  func resynchronize(on connection: PostgresConnection) {
    for (id, fanout) in fanouts.withLock({ $0 }) { refresh(id, fanout: fanout, on: connection) }
  }

  // MARK: Internals

  /// Reads the session's row on the listener's thread and starts its fanout.
  /// - Returns: `false` when there is no such session.
  private func subscribe(_ id: SessionID, listener: PostgresListener) async throws -> Bool {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
      listener.submit { [self] connection in
        guard let connection else { return continuation.resume(throwing: HTTPError.databaseUnavailable()) }
        if fanouts.withLock({ $0[id] != nil }) { return continuation.resume(returning: true) }
        do {
          guard let (version, state) = try Self.readRow(id, on: connection) else {
            return continuation.resume(returning: false)
          }
          let json = Array(state.utf8)
          let value = try JSONValue(parsing: json)
          lastStates.withLock { $0[id] = value }
          let initial = PublishedState(version: version, json: json)
          fanouts.withLock { $0[id] = EventFanout(initial: initial, historyLength: historyLength) }
          continuation.resume(returning: true)
        } catch {
          continuation.resume(throwing: HTTPError.databaseUnavailable())
        }
      }
    }
  }

  /// Reads the session's row on the listener's thread, in order with the notifications, and
  /// publishes it when it is newer than what the fanout has.
  private func catchUp(_ id: SessionID, fanout: EventFanout, listener: PostgresListener) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      listener.submit { [self] connection in
        if let connection { refresh(id, fanout: fanout, on: connection) }
        continuation.resume()
      }
    }
  }

  /// Publishes the row's version, or ends the streams when the session is gone.
  private func refresh(_ id: SessionID, fanout: EventFanout, on connection: PostgresConnection) {
    do {
      guard let row = try Self.readRow(id, on: connection) else { return end(id, fanout: fanout) }
      guard row.version > fanout.latest.version else { return }
      publish(id: id, version: row.version, state: row.state, to: fanout)
    } catch {
      // The connection broke: the listener reconnects and resynchronizes every fanout.
    }
  }

  /// Publishes the state with the patch from the last one published: this process only
  /// has the states' JSON, so the two documents are diffed whole.
  private func publish(id: SessionID, version: Int, state: String, to fanout: EventFanout) {
    guard version != SessionNotification.deletedVersion else { return end(id, fanout: fanout) }
    let json = Array(state.utf8)
    guard let value = try? JSONValue(parsing: json) else { return }
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
    fanout.publish(PublishedState(version: version, patch: patch, json: json))
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

  /// The session's durable version and state, or `nil` when it does not exist.
  private static func readRow(_ id: SessionID, on connection: PostgresConnection) throws -> (version: Int, state: String)? {
    let rows = try connection.execute("SELECT version, state FROM storehost_sessions WHERE id = $1", [id.rawValue])
    guard let row = rows.first, let version = row[0].flatMap({ Int($0) }), let state = row[1] else { return nil }
    return (version, state)
  }
}
