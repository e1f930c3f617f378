/// Saved sessions read a page at a time, without writing anything: what a check of a new
/// build against the data of the running one reads (``SessionsCheck``, ``DeployCheck``).
public protocol SavedSessions {
  /// Up to `limit` sessions whose ids sort after `id` (from the first when `nil`), in order
  /// of id, without their remembered answers or history.
  func sessions(after id: SessionID?, limit: Int) throws -> [SessionSnapshot]
  /// The ids of the `limit` most recently active sessions, most recent first.
  func recentlyActive(limit: Int) throws -> [SessionID]
  /// The saved history steps of the session `id`, oldest first; empty when none is saved.
  func history(of id: SessionID) throws -> [HistoryRecord]
}
