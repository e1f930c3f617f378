@_spi(Hosting) import Composable
import StoreHostJSON

/// The gate before a rollout, run by the new build against the data the running one uses:
/// every saved session read as a start would (``SessionsCheck``), and the history of the
/// most recently active sessions replayed step by step through the new reducer, each
/// step's state compared with the one the old build recorded (as
/// `POST /api/sessions/{id}/replay` does, going on past each difference from the recorded
/// state). Nothing is written, no lease is taken, and effects are dropped: what they sent
/// back is among the recorded actions.
///
/// ```swift
/// let check = DeployCheck(initialState: AppFeature.State()) { AppFeature() }
/// let report = try check.run(SQLiteSavedSessions(path: "data/sessions.sqlite"))
/// print(report)
/// exit(report.passed ? 0 : 1)
/// ```
public struct DeployCheck<State: Codable & Equatable & Sendable, Action: Codable & Sendable> {
  /// What to replay, what to accept, and for how long.
  public struct Options: Sendable {
    /// The most recently active sessions whose history is replayed: 200.
    public var sample = 200
    /// Action paths whose differences are intended (`counter.incrementButtonTapped`, or
    /// `counter` for all of its actions): reported, but passing.
    public var allowedActions: Set<String> = []
    /// When the check stops and fails: 300 s.
    public var timeout: Duration = .seconds(300)
    /// Sessions read per page: ``SessionsCheck/defaultPageSize``.
    public var pageSize = SessionsCheck<State>.defaultPageSize

    public init() {}
  }

  /// Differences a report tells apart by action (the rest are left out): 1,000.
  public static var differenceLimit: Int { 1000 }
  /// Issue messages a report tells apart: 100.
  public static var issueLimit: Int { 100 }

  /// Not `Sendable`, as reducer types need not be; a check runs on one thread.
  let feature: Reduce<State, Action>
  let prepareDependencies: @Sendable (inout DependencyValues) -> Void
  let initialState: @Sendable () -> State

  /// A check of a feature whose sessions start as `initialState` and run `reducer`, with
  /// the dependencies `prepareDependencies` sets, as the ``SessionHost`` serving them has.
  public init<Feature: Reducer<State, Action>>(
    initialState: @escaping @autoclosure @Sendable () -> State,
    reducer: () -> Feature,
    withDependencies prepareDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) {
    self.feature = Reduce(reducer())
    self.initialState = initialState
    self.prepareDependencies = { values in
      values.context = .live
      prepareDependencies(&values)
    }
  }

  /// Checks `sessions`.
  /// - Throws: when the sessions cannot be read; what this build makes of them is in the
  ///   report.
  public func run(_ sessions: some SavedSessions, options: Options = Options()) throws -> DeployCheckReport {
    let deadline = ContinuousClock.now + options.timeout
    let initialState = initialState
    let check = SessionsCheck(initialState: initialState(), pageSize: options.pageSize, withDependencies: prepareDependencies)
    var report = DeployCheckReport(sessions: try check.run(sessions, until: deadline))
    report.timedOut = report.sessions.timedOut
    guard !report.timedOut else { return report }
    var differences: [String: DeployCheckReport.Difference] = [:]
    for id in try sessions.recentlyActive(limit: options.sample) {
      guard ContinuousClock.now < deadline else {
        report.timedOut = true
        break
      }
      report.replay.sampled += 1
      try replay(id, in: sessions, allowing: options.allowedActions, into: &report.replay, &differences)
    }
    report.replay.differences = differences.values.sorted { ($0.allowed ? 1 : 0, -$0.steps) < ($1.allowed ? 1 : 0, -$1.steps) }
    return report
  }

  /// Replays the saved history of the session `id`, adding what it found to `replay`.
  private func replay(
    _ id: SessionID, in sessions: some SavedSessions, allowing allowed: Set<String>,
    into replay: inout DeployCheckReport.Replay, _ differences: inout [String: DeployCheckReport.Difference]
  ) throws {
    let records = try sessions.history(of: id)
    guard !records.isEmpty else {
      replay.notReplayed.sessionsWithoutHistory += 1
      return
    }
    let dependencies: @Sendable (inout DependencyValues) -> Void = { [prepareDependencies] values in
      prepareDependencies(&values)
      values.keepSharedValuesApart(session: id)
    }
    typealias Host = SessionHost<State, Action>
    guard let script = try? Host.script(of: records, dependencies: dependencies) else {
      replay.notReplayed.sessionsWithUnreadableHistory += 1
      return
    }
    let outcome = HistoryReplay(feature: feature, dependencies: dependencies, write: Host.written)
      .run(script) { try Host.readReplayState($0, dependencies: dependencies).state }
    replay.replayed += 1
    replay.steps += outcome.stepsRun
    replay.actions += outcome.actionsRun
    replay.notReplayed.stepsBeforeReplayableStart += script.skippedSteps
    for issue in outcome.issues where replay.issues[issue] != nil || replay.issues.count < Self.issueLimit {
      replay.issues[issue, default: 0] += 1
    }
    var seen: Set<String> = []
    for difference in outcome.differences {
      guard difference.error == nil else {
        replay.notReplayed.stepsWithUndecodableActions += 1
        continue
      }
      let action = difference.actions.first.map(path(of:)) ?? ""
      if differences[action] == nil {
        guard differences.count < Self.differenceLimit else { continue }
        differences[action] = DeployCheckReport.Difference(
          action: action, steps: 0, sessions: 0, field: Self.field(of: difference.patch), exampleSession: id,
          exampleVersion: difference.version,
          examplePatch: String(decoding: (try? JSONEncoding.encode(difference.patch)) ?? [], as: UTF8.self),
          allowed: ActionPath.path(action, isAllowedBy: allowed))
      }
      differences[action]!.steps += 1
      if seen.insert(action).inserted { differences[action]!.sessions += 1 }
    }
  }

  /// The path of a recorded action's JSON, by its case names when this build decodes it.
  private func path(of json: JSONValue) -> String {
    guard let action = try? json.decode(as: Action.self) else { return ActionPath.of(json: json) }
    return ActionPath.of(action)
  }

  /// The first field a patch changes, as a dotted path (`counter.count`); `(state)` for
  /// the whole state.
  private static func field(of patch: [JSONPatchOperation]) -> String {
    guard let first = patch.first else { return "(state)" }
    let pointer: JSONPointer =
      switch first {
      case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
      case .move(_, let path), .copy(_, let path): path
      }
    return pointer.tokens.isEmpty ? "(state)" : pointer.tokens.joined(separator: ".")
  }
}
