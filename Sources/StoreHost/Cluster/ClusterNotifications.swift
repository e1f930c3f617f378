/// Routes the listener's notifications: session versions to the streams, shared values to
/// their cache; and keeps this process's liveness lock on the listener's connection.
struct ClusterNotifications: PostgresListener.Handler {
  let followers: SessionFollowers
  let sharedValues: ClusterSharedValues
  let liveness: ProcessLiveness

  /// The channels this handler understands.
  static let channels = [PostgresSchema.sessionChannel, PostgresSchema.sharedChannel]

  func received(channel: String, payload: String, on connection: PostgresConnection) {
    switch channel {
    case PostgresSchema.sessionChannel: followers.received(payload: payload, on: connection)
    case PostgresSchema.sharedChannel: sharedValues.received(payload: payload, on: connection)
    default: break
    }
  }

  func resynchronize(on connection: PostgresConnection) throws(PostgresError) {
    try liveness.acquire(on: connection)
    followers.resynchronize(on: connection)
    sharedValues.resynchronize(on: connection)
  }

  func disconnected() {
    liveness.lost()
  }
}
