/// How much a returned ``SessionPersistence/save(_:)`` promises (`--durability fast|strict`).
public enum Durability: String, Sendable, CaseIterable {
  /// `save` returns at once. Saves are coalesced per session and written together in one
  /// transaction at most a batch delay (100 ms by default) after the first of them. A crash
  /// loses at most that window; SQLite runs with `synchronous=NORMAL` in WAL mode, so the file
  /// stays consistent, and a power loss may also lose the last commits. The default.
  case fast
  /// `save` returns only after the transaction holding it committed with `synchronous=FULL`
  /// (the WAL fsynced). Saves waiting at the same time share one transaction (group commit),
  /// so throughput grows with the number of concurrent writers.
  case strict
}
