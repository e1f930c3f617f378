/// One step of a session's history as it is stored (see `SessionHistory`): one send's
/// actions and the version they made, a change made elsewhere, or where the history starts.
public struct HistoryRecord: Hashable, Sendable {
  /// Counts the session's steps from its creation (across restarts): the record's key.
  public var step: Int
  /// The session's version after the step.
  public var version: Int
  /// The state version (`Composable/MigratableState`) of the build that recorded it: the
  /// shape of ``state`` and of the patch in ``json``.
  public var stateVersion: Int
  /// The step as `GET /api/sessions/{id}/history` serves it:
  /// `{"version", "time", "kind", "actions", "patch"}`.
  public var json: [UInt8]
  /// The state's JSON at ``version``, when the step keeps it whole (the first step kept, and
  /// every so often, so any version is a few patches from a whole state).
  ///
  /// The steps ``SessionPersistence/load(_:)`` and ``SessionPersistence/loadAll()`` give
  /// with a session may be an outline, when the persistence
  /// ``SessionPersistence/storesHistory``: the steps keeping the whole state and the last
  /// step only, with ``json`` empty and ``state`` empty where the step keeps the whole state
  /// (`nil` elsewhere); ``SessionPersistence/history(of:)`` gives every step, whole.
  public var state: [UInt8]?

  public init(step: Int, version: Int, stateVersion: Int, json: [UInt8], state: [UInt8]?) {
    self.step = step
    self.version = version
    self.stateVersion = stateVersion
    self.json = json
    self.state = state
  }
}

/// The history a save stores with a session's state: the steps recorded since the last
/// save, up to the saved version, in the same transaction as the state.
public struct HistoryWrite: Sendable {
  /// New steps, oldest first; a step stored before is replaced.
  public var records: [HistoryRecord]
  /// The oldest step the session still keeps: stored steps before it are deleted.
  public var firstKeptStep: Int
  /// Whether steps before ``firstKeptStep`` may be stored: `false` when a durable save of
  /// the session already kept the same oldest step, so there is nothing to delete. (Once
  /// the oldest step moves on, all steps before it are deleted, whatever an earlier save
  /// that failed left.)
  public var dropsEarlierSteps: Bool

  public init(records: [HistoryRecord], firstKeptStep: Int, dropsEarlierSteps: Bool = true) {
    self.records = records
    self.firstKeptStep = firstKeptStep
    self.dropsEarlierSteps = dropsEarlierSteps
  }
}

extension [HistoryRecord] {
  /// These stored steps with `write` applied: its records added or replacing those of the
  /// same step, and the steps before its first kept one dropped.
  func merged(with write: HistoryWrite?) -> [HistoryRecord] {
    guard let write else { return self }
    var byStep = Dictionary(map { ($0.step, $0) }, uniquingKeysWith: { _, newer in newer })
    for record in write.records { byStep[record.step] = record }
    return byStep.values.filter { $0.step >= write.firstKeptStep }.sorted { $0.step < $1.step }
  }
}
