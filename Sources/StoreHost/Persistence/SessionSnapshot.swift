import Foundation

/// One session as persisted: its state at a version, and when it was created and last used.
public struct SessionSnapshot: Hashable, Sendable {
  public var id: SessionID
  /// Grows with every state change; a store never goes back to a lower version.
  public var version: Int
  /// The state's compact JSON bytes (`JSONValue/serialized()`).
  public var state: Data
  /// The state version (`Composable/MigratableState`) of the build that wrote ``state``.
  public var stateVersion: Int
  /// The highest version clients may have seen: versions after ``version`` up to this one
  /// may have been published and then lost in a crash, so the session goes on past it.
  /// Equal to ``version`` when nothing was published beyond it.
  public var reservedVersion: Int
  public var createdAt: Date
  /// The last action or connection, for idle eviction after a restart.
  public var lastActiveAt: Date
  /// Answers to requests sent with an `Idempotency-Key`, none reporting a version past
  /// ``version``.
  public var answers: [RememberedAnswer]
  /// The session's kept history, oldest step first (see ``HistoryRecord``); empty when none
  /// is kept.
  public var history: [HistoryRecord]
  /// In a cluster, the session's ownership epoch: moved on by every takeover, handover and
  /// release, so a save made under an earlier one is refused (see ``SessionCluster``). 0
  /// where one process owns every session.
  public var epoch: Int

  public init(
    id: SessionID, version: Int, state: Data, stateVersion: Int = 0, reservedVersion: Int? = nil, createdAt: Date,
    lastActiveAt: Date, answers: [RememberedAnswer] = [], history: [HistoryRecord] = [], epoch: Int = 0
  ) {
    self.id = id
    self.version = version
    self.state = state
    self.stateVersion = stateVersion
    self.reservedVersion = max(version, reservedVersion ?? version)
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
    self.answers = answers
    self.history = history
    self.epoch = epoch
  }

  /// The version the session continues from when it is read back: ``version`` when nothing
  /// was published past it, else the first version after the reserved ones, so no version a
  /// client may hold ever names another state.
  public var resumedVersion: Int {
    reservedVersion > version ? reservedVersion + 1 : version
  }
}

/// A session's state at one version, handed to ``SessionPersistence/save(_:)-(SessionSave)``.
///
/// Its JSON is made by ``encodeState`` when the persistence writes it, so a version that a
/// newer one replaces before it is written is never encoded.
public struct SessionSave: Sendable {
  public var id: SessionID
  public var version: Int
  /// The state version (`Composable/MigratableState`) the JSON is written in.
  public var stateVersion: Int
  /// The highest version the session may publish once this save is durable (see
  /// ``SessionSnapshot/reservedVersion``).
  public var reservedVersion: Int
  public var createdAt: Date
  public var lastActiveAt: Date
  /// The ownership epoch the session is saved under (see ``SessionSnapshot/epoch``): a
  /// shared database refuses the save once another owner moved the epoch on.
  public var epoch: Int
  /// Makes the state's compact JSON bytes.
  public let encodeState: @Sendable () throws -> [UInt8]
  /// The answers to store with this save: those given since the last durable save, up to
  /// ``version``. Read when the save is written, in the same transaction as the state, so
  /// an answer is durable exactly when the state it reports is.
  public let newAnswers: @Sendable () -> [RememberedAnswer]
  /// The history steps to store with this save, when the session keeps a history: read
  /// when the save is written, in the same transaction as the state.
  public let newHistory: (@Sendable () -> HistoryWrite)?
  /// Told once this save is durable: the history steps it wrote are saved.
  var didCommitHistory: (@Sendable () -> Void)?
  /// Someone waits for this save: a persistence that batches writes commits it at once,
  /// without waiting for its batch delay.
  var isAwaited = false

  public init(
    id: SessionID, version: Int, stateVersion: Int = 0, reservedVersion: Int? = nil, createdAt: Date,
    lastActiveAt: Date, epoch: Int = 0, encodeState: @escaping @Sendable () throws -> [UInt8],
    newAnswers: @escaping @Sendable () -> [RememberedAnswer] = { [] },
    newHistory: (@Sendable () -> HistoryWrite)? = nil
  ) {
    self.id = id
    self.version = version
    self.stateVersion = stateVersion
    self.reservedVersion = max(version, reservedVersion ?? version)
    self.createdAt = createdAt
    self.lastActiveAt = lastActiveAt
    self.epoch = epoch
    self.encodeState = encodeState
    self.newAnswers = newAnswers
    self.newHistory = newHistory
  }

  /// A save of `snapshot`, whose state is encoded already, with its answers, and its
  /// history unless that is an outline (see ``HistoryRecord/state``), which leaves the
  /// stored history as it is.
  public init(_ snapshot: SessionSnapshot) {
    let state = [UInt8](snapshot.state)
    let answers = snapshot.answers
    var newHistory: (@Sendable () -> HistoryWrite)?
    if let first = snapshot.history.first, snapshot.history.allSatisfy({ !$0.json.isEmpty }) {
      let write = HistoryWrite(records: snapshot.history, firstKeptStep: first.step)
      newHistory = { write }
    }
    self.init(
      id: snapshot.id, version: snapshot.version, stateVersion: snapshot.stateVersion,
      reservedVersion: snapshot.reservedVersion, createdAt: snapshot.createdAt, lastActiveAt: snapshot.lastActiveAt,
      epoch: snapshot.epoch, encodeState: { state }, newAnswers: { answers }, newHistory: newHistory)
  }

  /// The snapshot to store: the state encoded now, with the new answers as of now.
  public func snapshot() throws -> SessionSnapshot {
    SessionSnapshot(
      id: id, version: version, state: Data(try encodeState()), stateVersion: stateVersion,
      reservedVersion: reservedVersion, createdAt: createdAt, lastActiveAt: lastActiveAt, answers: newAnswers(),
      epoch: epoch)
  }
}

/// A stored session's state relabelled as `version` (the same state), with versions up to
/// `reservedVersion` reserved for it to publish (see ``SessionSnapshot/resumedVersion``).
public struct SessionReservation: Hashable, Sendable {
  public var id: SessionID
  public var version: Int
  public var reservedVersion: Int

  public init(id: SessionID, version: Int, reservedVersion: Int) {
    self.id = id
    self.version = version
    self.reservedVersion = max(version, reservedVersion)
  }
}
