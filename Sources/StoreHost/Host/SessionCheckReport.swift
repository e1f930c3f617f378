import Composable
import StoreHostJSON

/// What ``SessionHost/check(_:)`` found: how many saved sessions this build reads, and
/// which it cannot.
public struct SessionCheckReport: Sendable {
  /// Sessions this build reads.
  public var readable: Int
  /// Sessions this build cannot read, kept in storage unchanged.
  public var unreadable: [UnreadableSession]
}

/// A saved session this build cannot read: its JSON does not decode into the state, or a
/// newer build saved it under a later state version. It is kept in storage, unchanged,
/// for a build that can read it.
public struct UnreadableSession: Hashable, Sendable {
  public var id: SessionID
  /// The state version it was saved under.
  public var stateVersion: Int
  /// Why, with the place in the state: `counter.step: missing key 'step'`, say.
  public var reason: String

  init(_ snapshot: SessionSnapshot, error: any Error) {
    id = snapshot.id
    stateVersion = snapshot.stateVersion
    reason =
      switch error {
      case let error as SavedStateError: error.description
      case let error as JSONParseError: "the saved state is not valid JSON: \(error)"
      case is DecodingError: ActionDecodingError(error).message
      default: String(describing: error)
      }
  }
}
