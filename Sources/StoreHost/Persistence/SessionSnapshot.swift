import Foundation

/// One session as persisted: its state at a version, and when it was created and last used.
public struct SessionSnapshot: Hashable, Sendable {
  public var id: SessionID
  /// Grows by one with every state change; a store never goes back to a lower version.
  public var version: Int
  /// The state's compact JSON bytes (``JSONValue/serialized()``).
  public var state: Data
  public var createdAt: Date
  /// The last action or connection, for idle eviction after a restart.
  public var lastActiveAt: Date

  public init(id: SessionID, version: Int, state: Data, createdAt: Date, lastActiveAt: Date) {
    self.id = id
    self.version = version
    self.state = state
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
  }
}
