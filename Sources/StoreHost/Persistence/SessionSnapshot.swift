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

/// A session's state at one version, handed to ``SessionPersistence/save(_:)-(SessionSave)``.
///
/// Its JSON is made by ``encodeState`` when the persistence writes it, so a version that a
/// newer one replaces before it is written is never encoded.
public struct SessionSave: Sendable {
  public var id: SessionID
  public var version: Int
  public var createdAt: Date
  public var lastActiveAt: Date
  /// Makes the state's compact JSON bytes.
  public let encodeState: @Sendable () throws -> [UInt8]

  public init(
    id: SessionID, version: Int, createdAt: Date, lastActiveAt: Date,
    encodeState: @escaping @Sendable () throws -> [UInt8]
  ) {
    self.id = id
    self.version = version
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
    self.encodeState = encodeState
  }

  /// A save of `snapshot`, whose state is encoded already.
  public init(_ snapshot: SessionSnapshot) {
    let state = [UInt8](snapshot.state)
    self.init(
      id: snapshot.id, version: snapshot.version, createdAt: snapshot.createdAt, lastActiveAt: snapshot.lastActiveAt,
      encodeState: { state })
  }

  /// The snapshot to store: the state encoded now.
  func snapshot() throws -> SessionSnapshot {
    SessionSnapshot(
      id: id, version: version, state: Data(try encodeState()), createdAt: createdAt, lastActiveAt: lastActiveAt)
  }
}
