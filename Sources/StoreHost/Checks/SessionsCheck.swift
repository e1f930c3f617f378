@_spi(Hosting) import Composable

/// Reads every saved session with this build, as bringing it back into memory would
/// (migrated, decoded with the session's dependencies, its keyed shared values attached
/// again), without serving or writing anything: the check a deploy runs before a new build
/// starts on the sessions the running one saved (`storehost sessions check`).
///
/// ```swift
/// let check = SessionsCheck(initialState: AppFeature.State())
/// let report = try check.run(SQLiteSavedSessions(path: "data/sessions.sqlite"))
/// ```
///
/// Sessions are read ``pageSize`` at a time, so memory does not grow with their number.
/// Shared values are kept apart from any file or process-wide storage: `.appStorage`,
/// `.fileStorage` and `.inMemory` keys read and write memory of the check's own.
public struct SessionsCheck<State: Decodable & Sendable> {
  /// Sessions read per page: 1,000.
  public static var defaultPageSize: Int { 1000 }
  /// Unreadable sessions a report lists one by one (the rest are counted): 100.
  public static var listedLimit: Int { 100 }
  /// Reasons a report tells apart (the rest are counted together): 100.
  public static var causeLimit: Int { 100 }

  public var pageSize: Int
  let reader: SessionStateReader<State>

  /// A check of states that sessions start as `initialState`, decoded with the
  /// dependencies `prepareDependencies` sets, as the ``SessionHost`` serving them has.
  public init(
    initialState: @escaping @autoclosure @Sendable () -> State,
    pageSize: Int = defaultPageSize,
    withDependencies prepareDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) {
    self.pageSize = max(pageSize, 1)
    self.reader = SessionStateReader(
      prepareDependencies: { values in
        values.context = .live
        prepareDependencies(&values)
        values.keepSharedValuesApart()
      },
      makeInitialState: initialState)
  }

  /// Reads every session of `sessions`, in order of id, until `deadline` if one is given.
  /// - Throws: when the sessions cannot be read (not when a state does not decode: that is
  ///   in the report).
  public func run(_ sessions: some SavedSessions, until deadline: ContinuousClock.Instant? = nil) throws
    -> SessionCheckReport
  {
    var report = SessionCheckReport()
    var causes: [String: UnreadableCause] = [:]
    var last: SessionID?
    while true {
      if let deadline, ContinuousClock.now >= deadline {
        report.timedOut = true
        break
      }
      let page = try sessions.sessions(after: last, limit: pageSize)
      for snapshot in page {
        do {
          _ = try reader.read(snapshot)
          report.readable += 1
        } catch {
          let session = UnreadableSession(snapshot, error: error)
          report.unreadableCount += 1
          if report.unreadable.count < Self.listedLimit { report.unreadable.append(session) }
          if causes[session.reason] != nil {
            causes[session.reason]!.count += 1
          } else if causes.count < Self.causeLimit {
            causes[session.reason] = UnreadableCause(reason: session.reason, count: 1, example: session.id)
          } else {
            report.otherCauses += 1
          }
        }
      }
      guard page.count == pageSize, let next = page.last?.id else { break }
      last = next
    }
    report.causes = causes.values.sorted { ($0.count, $1.reason) > ($1.count, $0.reason) }
    return report
  }
}
