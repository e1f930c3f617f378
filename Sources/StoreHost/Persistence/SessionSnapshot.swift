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
  /// Answers to requests sent with an `Idempotency-Key`, none reporting a version past
  /// ``version``.
  public var answers: [RememberedAnswer]

  public init(
    id: SessionID, version: Int, state: Data, createdAt: Date, lastActiveAt: Date, answers: [RememberedAnswer] = []
  ) {
    self.id = id
    self.version = version
    self.state = state
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
    self.answers = answers
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
  /// The session's remembered answers at this version, read when the save is written, so a
  /// save written after an answer was given carries it.
  public let answers: @Sendable () -> [RememberedAnswer]

  public init(
    id: SessionID, version: Int, createdAt: Date, lastActiveAt: Date,
    encodeState: @escaping @Sendable () throws -> [UInt8],
    answers: @escaping @Sendable () -> [RememberedAnswer] = { [] }
  ) {
    self.id = id
    self.version = version
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
    self.encodeState = encodeState
    self.answers = answers
  }

  /// A save of `snapshot`, whose state is encoded already.
  public init(_ snapshot: SessionSnapshot) {
    let state = [UInt8](snapshot.state)
    let answers = snapshot.answers
    self.init(
      id: snapshot.id, version: snapshot.version, createdAt: snapshot.createdAt, lastActiveAt: snapshot.lastActiveAt,
      encodeState: { state }, answers: { answers })
  }

  /// The snapshot to store: the state encoded now, with the answers kept now.
  func snapshot() throws -> SessionSnapshot {
    SessionSnapshot(
      id: id, version: version, state: Data(try encodeState()), createdAt: createdAt, lastActiveAt: lastActiveAt,
      answers: answers())
  }
}
