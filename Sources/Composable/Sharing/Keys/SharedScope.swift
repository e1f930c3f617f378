/// Who shares an in-memory value: the whole process, or one session.
public enum SharedScope: Hashable, Sendable {
  /// Every store of the process sees the value, like global state in an app: a server
  /// shares it between all sessions. The default.
  case process
  /// Only stores with the same ``DependencyValues/sessionID`` see the value.
  case session
}

extension DependencyValues {
  /// The session the current store serves, set by the host of the store (for example
  /// `withDependencies: { $0.sessionID = id }`); `nil` outside sessions. Keys with
  /// ``SharedScope/session`` are separate for each id.
  public var sessionID: String? {
    get { self[SessionIDKey.self] }
    set { self[SessionIDKey.self] = newValue }
  }
}

private enum SessionIDKey: DependencyKey {
  static let liveValue: String? = nil
  static let testValue: String? = nil
}
