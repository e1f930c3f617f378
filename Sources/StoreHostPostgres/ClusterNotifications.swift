import StoreHost
import Synchronization

/// Routes the listener's notifications: session versions to the host's streams (the
/// ``StoreHost/ClusterAnnouncementReceiver``), shared values to their cache, `?log=1`
/// watches and actions to the registry and the streams; and keeps this process's liveness
/// lock on the listener's connection.
final class ClusterNotifications: PostgresListener.Handler {
  /// The channels this handler understands.
  static let channels = [PostgresSchema.sessionChannel, PostgresSchema.sharedChannel, PostgresSchema.logChannel]

  let sharedValues: ClusterSharedValues
  let liveness: ProcessLiveness
  /// Where durable versions and actions go; set when the process joins.
  let receiver = Mutex<(any ClusterAnnouncementReceiver)?>(nil)
  private let watches = Mutex(ActionWatches())
  /// The sessions a `?log=1` stream of this process watches.
  private let localWatches = Mutex<Set<SessionID>>([])

  init(sharedValues: ClusterSharedValues, liveness: ProcessLiveness) {
    self.sharedValues = sharedValues
    self.liveness = liveness
  }

  func received(channel: String, payload: String, on connection: PostgresConnection) {
    switch channel {
    case PostgresSchema.sessionChannel: receivedVersion(payload: payload, on: connection)
    case PostgresSchema.sharedChannel: sharedValues.received(payload: payload, on: connection)
    case PostgresSchema.logChannel: receivedLog(payload: payload)
    default: break
    }
  }

  func resynchronize(on connection: PostgresConnection) throws(PostgresError) {
    // Heartbeats need not survive a crash of the database: a lost one only looks late.
    try connection.execute("SET synchronous_commit = off")
    try liveness.acquire(on: connection)
    if let receiver = receiver.withLock({ $0 }) {
      for id in receiver.followedSessions { deliver(id, to: receiver, on: connection) }
    }
    sharedValues.resynchronize(on: connection)
  }

  func disconnected() {
    liveness.lost()
  }

  // MARK: Session versions

  /// Hands an announced version to the streams; one without its state is read first, on
  /// the listener's connection, when a stream here follows the session.
  private func receivedVersion(payload: String, on connection: PostgresConnection) {
    guard let notification = SessionNotification(payload: payload), let receiver = receiver.withLock({ $0 }) else {
      return
    }
    if notification.version == SessionNotification.deletedVersion { return receiver.deleted(notification.id) }
    if let state = notification.state {
      receiver.received(notification.id, DurableVersion(version: notification.version, state: Array(state.utf8)))
    } else if receiver.isFollowing(notification.id) {
      deliver(notification.id, to: receiver, on: connection)
    }
  }

  /// Reads the session's row and hands it to the streams (or tells them it was deleted).
  private func deliver(_ id: SessionID, to receiver: any ClusterAnnouncementReceiver, on connection: PostgresConnection) {
    do {
      if let durable = try Self.durableVersion(of: id, on: connection) {
        receiver.received(id, durable)
      } else {
        receiver.deleted(id)
      }
    } catch {
      // The connection broke: the listener reconnects and delivers every followed session.
    }
  }

  /// The session's durable version and state, or `nil` when it does not exist.
  static func durableVersion(of id: SessionID, on connection: PostgresConnection) throws -> DurableVersion? {
    let rows = try connection.execute("SELECT version, state FROM storehost_sessions WHERE id = $1", [id.rawValue])
    guard let row = rows.first, let version = row[0].flatMap({ Int($0) }), let state = row[1] else { return nil }
    return DurableVersion(version: version, state: Array(state.utf8))
  }

  // MARK: The action log

  private func receivedLog(payload: String) {
    guard let notification = ActionLogNotification(payload: payload) else { return }
    switch notification {
    case .action(let id, let data):
      receiver.withLock { $0 }?.receivedAction(of: id, data)
    case .watch(let id, let process, let watching):
      let changed = watches.withLock { $0.update(id, process: process, watching: watching, now: .now) }
      if changed { receiver.withLock { $0 }?.actionWatchChanged(of: id, watched: watching) }
    }
  }

  /// Whether any process watches the actions of `id`.
  func isWatched(_ id: SessionID) -> Bool {
    watches.withLock { $0.isWatched(id) }
  }

  /// Announces that a stream here watches `id`'s actions, or no longer does.
  func watch(_ id: SessionID, _ watching: Bool, processID: String, on listener: PostgresListener) {
    localWatches.withLock { watches in
      if watching { watches.insert(id) } else { watches.remove(id) }
    }
    let payload = ActionLogNotification.watch(id, process: processID, watching: watching).payload
    listener.submit { connection in
      _ = try? connection?.execute("SELECT pg_notify('\(PostgresSchema.logChannel)', $1)", [payload])
    }
  }

  /// Repeats this process's watches, and lets the watches of processes that stopped
  /// repeating theirs lapse.
  func renewWatches(processID: String, on listener: PostgresListener) {
    for id in localWatches.withLock({ $0 }) { watch(id, true, processID: processID, on: listener) }
    let ended = watches.withLock { $0.expire(now: .now) }
    guard let receiver = receiver.withLock({ $0 }) else { return }
    for id in ended { receiver.actionWatchChanged(of: id, watched: false) }
  }
}
