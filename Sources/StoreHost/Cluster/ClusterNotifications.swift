/// Routes the listener's notifications: session versions to the streams, shared values to
/// their cache.
struct ClusterNotifications: PostgresListener.Handler {
  let followers: SessionFollowers
  let sharedValues: ClusterSharedValues

  /// The channels this handler understands.
  static let channels = [PostgresSchema.sessionChannel, PostgresSchema.sharedChannel]

  func received(channel: String, payload: String, on connection: PostgresConnection) {
    switch channel {
    case PostgresSchema.sessionChannel: followers.received(payload: payload, on: connection)
    case PostgresSchema.sharedChannel: sharedValues.received(payload: payload, on: connection)
    default: break
    }
  }

  func resynchronize(on connection: PostgresConnection) {
    followers.resynchronize(on: connection)
    sharedValues.resynchronize(on: connection)
  }
}
