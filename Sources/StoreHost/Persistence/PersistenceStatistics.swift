/// Counters of a persistence's writer, for metrics and for seeing group commit work.
public struct PersistenceStatistics: Hashable, Sendable {
  /// Transactions committed.
  public var commits = 0
  /// Saves and deletes written by those transactions, after coalescing.
  public var writtenChanges = 0

  public init() {}
}
