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

  public func save(_ save: SessionSave) throws {
    try checkOpen()
    if let stored = snapshots[save.id], stored.version > save.version { return }
    var snapshot = try save.snapshot()
    snapshot.createdAt = snapshots[snapshot.id]?.createdAt ?? snapshot.createdAt
    snapshots[snapshot.id] = snapshot
  }

  public func delete(_ id: SessionID) throws {
    try checkOpen()
    snapshots[id] = nil
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
