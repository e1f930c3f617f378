import Composable
import StoreHostJSON

/// What ``SessionsCheck`` found: how many saved sessions this build reads, and which it
/// cannot, grouped by why. Its size does not grow with the number of sessions: it lists the
/// first ``SessionsCheck/listedLimit`` unreadable sessions and counts the rest.
public struct SessionCheckReport: Sendable, Encodable {
  /// Sessions this build reads.
  public var readable = 0
  /// Sessions this build cannot read, kept in storage unchanged.
  public var unreadableCount = 0
  /// The first unreadable sessions found, in order of id.
  public var unreadable: [UnreadableSession] = []
  /// The unreadable sessions by reason, most frequent first.
  public var causes: [UnreadableCause] = []
  /// Unreadable sessions whose reason is not among ``causes`` (past ``SessionsCheck/causeLimit`` reasons).
  public var otherCauses = 0
  /// Whether the check stopped at its deadline before reading every session.
  public var timedOut = false

  /// Every session read.
  public var total: Int { readable + unreadableCount }
}

/// One reason saved sessions cannot be read, with how many and one of them.
public struct UnreadableCause: Hashable, Sendable, Encodable {
  public var reason: String
  public var count: Int
  public var example: SessionID
}

/// A saved session this build cannot read: its JSON does not decode into the state, or a
/// newer build saved it under a later state version. It is kept in storage, unchanged,
/// for a build that can read it.
public struct UnreadableSession: Hashable, Sendable, Encodable {
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
