import Foundation

/// Where sessions outlive the process: the session host's only view of storage, so a local
/// file and a database shared by several processes are interchangeable.
///
/// Every method may be called from any task. Implementations keep, for each session, the
/// snapshot with the highest version they were given, with its version and state together.
public protocol SessionPersistence: Sendable {
  /// Every stored session, after all earlier saves and deletes took effect.
  func loadAll() async throws -> [SessionSnapshot]

  /// One stored session with its remembered answers, and its history or an outline of it
  /// (see ``HistoryRecord/state``) when it ``storesHistory``, as last committed; `nil` when
  /// none is stored under `id`. A host brings a resting session into memory with this.
  func load(_ id: SessionID) async throws -> SessionSnapshot?

  /// The ids of up to `limit` stored sessions last active in `range` and saved under a state
  /// version up to `stateVersion` (see ``SessionSnapshot/stateVersion``), most recently
  /// active first.
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]

  /// Stores the session at `save`'s version, replacing an older version of the same
  /// session; an older version than the one stored is ignored. When this returns depends on
  /// the durability promised by the implementation (see ``Durability``). Implementations
  /// that queue writes encode the state when they write it.
  func save(_ save: SessionSave) async throws

  /// Starts ``save(_:)-(SessionSave)`` without waiting for it, and calls `completion` once
  /// the save is durable (with its error, if it failed), whatever the durability: a session
  /// publishes a version only once a save reserving it is durable. Persistences that queue
  /// writes queue it at once.
  func save(_ save: SessionSave, completion: @escaping @Sendable ((any Error)?) -> Void)

  /// Relabels stored sessions' states with new versions and reserves the versions up to
  /// each one's ``SessionReservation/reservedVersion``, durably before it returns. A session
  /// not stored, or stored at a later version, is left as it is.
  func reserve(_ reservations: [SessionReservation]) async throws

  /// Forgets the session, with its remembered answers and its history. A later ``save(_:)``
  /// of the same id stores it again.
  func delete(_ id: SessionID) async throws

  /// Forgets the remembered answers given before `date`.
  func forgetAnswers(answeredBefore date: Date) async throws

  /// Whether this persistence stores the history steps that saves carry
  /// (``SessionSave/newHistory``) and gives them back with ``history(of:)``: a host then
  /// keeps only the steps not saved yet in memory. The default implementation says no.
  var storesHistory: Bool { get }

  /// The stored history steps of the session `id`, oldest first, whole, after every earlier
  /// save took effect. The default implementation has none.
  func history(of id: SessionID) async throws -> [HistoryRecord]

  /// Forgets the history of every stored session (``SessionSave/newHistory``): a host that
  /// keeps none calls it when its housekeeping starts, so turning history off deletes what
  /// was kept. A persistence that stores no history (it ignores ``SessionSave/newHistory``)
  /// has nothing to do, which is what the default implementation does.
  func deleteAllHistory() async throws

  /// Returns once every earlier save and delete is durable, or throws why it is not.
  func flush() async throws

  /// Commits a small write of its own, or throws why storage does not take it: how a host
  /// whose writes failed learns that they work again while no session saves. The default
  /// implementation flushes.
  func probe() async throws

  /// Flushes, then releases the storage. Later calls throw ``SessionPersistenceError/closed``.
  func close() async throws

  /// Whether clients see versions through their saves (announced by the database to every
  /// process), so each version must be saved; otherwise a version that changed only keyed
  /// shared values, stored with their keys, is not saved on its own. Default `false`.
  var streamsFromSaves: Bool { get }
}

extension SessionPersistence {
  public var streamsFromSaves: Bool { false }
}

extension SessionPersistence {
  /// The ids of up to `limit` stored sessions last active in `range`, whatever build saved
  /// them, most recently active first.
  public func sessions(lastActiveIn range: Range<Date>, limit: Int) async throws -> [SessionID] {
    try await sessions(lastActiveIn: range, savedThroughStateVersion: .max, limit: limit)
  }

  /// Runs ``save(_:)-(SessionSave)`` in a task: for persistences whose `save` returns once
  /// the save is durable.
  public func save(_ save: SessionSave, completion: @escaping @Sendable ((any Error)?) -> Void) {
    Task {
      do {
        try await self.save(save)
        completion(nil)
      } catch {
        completion(error)
      }
    }
  }

  /// Stores `snapshot`, whose state is encoded already.
  public func save(_ snapshot: SessionSnapshot) async throws {
    try await save(SessionSave(snapshot))
  }

  /// Flushes.
  public func probe() async throws {
    try await flush()
  }

  /// For persistences that store no history: no.
  public var storesHistory: Bool { false }

  /// For persistences that store no history: none.
  public func history(of id: SessionID) async throws -> [HistoryRecord] { [] }

  /// For persistences that store no history: nothing to do.
  public func deleteAllHistory() async throws {}
}

/// Errors of ``SessionPersistence`` implementations beyond those of the storage itself.
public enum SessionPersistenceError: Error, Equatable, CustomStringConvertible {
  /// The persistence was closed.
  case closed
  /// Stored data that is not a valid session, such as a malformed id.
  case invalidRecord(String)
  /// The file was written by a newer StoreHost with a schema this one does not know.
  case unsupportedSchema(version: Int)

  public var description: String {
    switch self {
    case .closed: "session persistence is closed"
    case .invalidRecord(let detail): "stored session is invalid: \(detail)"
    case .unsupportedSchema(let version): "session database schema \(version) is newer than this StoreHost supports"
    }
  }
}
