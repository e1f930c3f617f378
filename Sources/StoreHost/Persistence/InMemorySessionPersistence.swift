import Foundation

/// Sessions kept in memory only: for tests of the session host, and for running without a
/// data directory. Every call takes effect at once; nothing survives the process.
public actor InMemorySessionPersistence: SessionPersistence {
  private var snapshots: [SessionID: SessionSnapshot] = [:]
  private var isClosed = false

  public init() {}

  public func loadAll() throws -> [SessionSnapshot] {
    try checkOpen()
    return snapshots.values.sorted { $0.id.rawValue < $1.id.rawValue }
  }

  public func load(_ id: SessionID) throws -> SessionSnapshot? {
    try checkOpen()
    return snapshots[id]
  }

  public func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    throws -> [SessionID]
  {
    try checkOpen()
    return snapshots.values.filter { range.contains($0.lastActiveAt) && $0.stateVersion <= stateVersion }.sorted { $0.lastActiveAt > $1.lastActiveAt }
      .prefix(limit).map(\.id)
  }

  public func save(_ save: SessionSave) throws {
    try checkOpen()
    let stored = snapshots[save.id]
    if let stored, stored.version > save.version || stored.stateVersion > save.stateVersion { return }
    var snapshot = try save.snapshot()
    snapshot.createdAt = stored?.createdAt ?? snapshot.createdAt
    snapshot.answers = (stored?.answers ?? []).merged(with: snapshot.answers)
    snapshot.history = (stored?.history ?? []).merged(with: save.newHistory?())
    snapshots[snapshot.id] = snapshot
  }

  public nonisolated var storesHistory: Bool { true }

  public func history(of id: SessionID) throws -> [HistoryRecord] {
    try checkOpen()
    return snapshots[id]?.history ?? []
  }

  public func deleteAllHistory() throws {
    try checkOpen()
    for id in snapshots.keys { snapshots[id]?.history = [] }
  }

  public func reserve(_ reservations: [SessionReservation]) throws {
    try checkOpen()
    for reservation in reservations {
      guard var stored = snapshots[reservation.id], stored.version <= reservation.version else { continue }
      stored.version = reservation.version
      stored.reservedVersion = reservation.reservedVersion
      snapshots[reservation.id] = stored
    }
  }

  public func delete(_ id: SessionID) throws {
    try checkOpen()
    snapshots[id] = nil
  }

  public func forgetAnswers(answeredBefore date: Date) throws {
    try checkOpen()
    for id in snapshots.keys { snapshots[id]?.answers.removeAll { $0.answeredAt < date } }
  }

  public func flush() throws {
    try checkOpen()
  }

  public func close() throws {
    try checkOpen()
    isClosed = true
  }

  private func checkOpen() throws(SessionPersistenceError) {
    guard !isClosed else { throw .closed }
  }
}
