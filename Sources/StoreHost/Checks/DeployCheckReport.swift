/// What ``DeployCheck`` found, grouped by cause: the saved sessions the new build cannot
/// read, the actions it reduces differently from the build that recorded them, and what
/// could not be replayed. Its size does not grow with the number of sessions.
public struct DeployCheckReport: Sendable, Encodable {
  /// Every saved session read as a start would (``SessionsCheck``).
  public var sessions: SessionCheckReport
  /// The most recently active sessions whose history was replayed.
  public var replay = Replay()
  /// Whether the check stopped at its time limit.
  public var timedOut = false

  /// What replaying the sampled sessions' histories through the new reducer found.
  public struct Replay: Sendable, Encodable {
    /// Sessions sampled, most recently active first.
    public var sampled = 0
    /// Sampled sessions whose history was replayed.
    public var replayed = 0
    /// Steps and actions run through the new reducer.
    public var steps = 0
    public var actions = 0
    /// Steps whose new state differs from the recorded one, by the action that made it.
    public var differences: [Difference] = []
    /// What could not be replayed, counted rather than hidden.
    public var notReplayed = NotReplayed()
    /// Issues the reducer's dependencies reported (more UUIDs asked for than were
    /// recorded, say), by message, with how many times.
    public var issues: [String: Int] = [:]
  }

  /// Steps whose state the new reducer makes differently, for one action.
  public struct Difference: Sendable, Encodable {
    /// The action's path of case names (``DeployCheck``): `counter.incrementButtonTapped`.
    public var action: String
    public var steps: Int
    public var sessions: Int
    /// The first field that differs in the example, as a path: `counter.count`.
    public var field: String
    /// A session and the version where it differs, and the patch from the recorded state
    /// to the new one.
    public var exampleSession: SessionID
    public var exampleVersion: Int
    public var examplePatch: String
    /// Whether `--allow` (``DeployCheck/Options/allowedActions``) names it as intended.
    public var allowed: Bool
  }

  /// What a replay could not run.
  public struct NotReplayed: Sendable, Encodable {
    /// Sampled sessions with no saved history (kept with `--history 0`, or in a cluster's
    /// memory only).
    public var sessionsWithoutHistory = 0
    /// Sampled sessions none of whose kept states this build reads.
    public var sessionsWithUnreadableHistory = 0
    /// Kept steps before the last change actions alone cannot make (a shared value changed
    /// by another session, a restart that changed the state, the start of the history).
    public var stepsBeforeReplayableStart = 0
    /// Steps with an action this build cannot decode.
    public var stepsWithUndecodableActions = 0
  }

  /// Whether the deploy may go on: every session readable, every difference allowed, and
  /// the check finished in time.
  public var passed: Bool {
    !timedOut && sessions.unreadableCount == 0 && replay.differences.allSatisfy(\.allowed)
  }

  private enum CodingKeys: String, CodingKey {
    case passed, sessions, replay, timedOut
  }

  /// `{"passed", "sessions", "replay", "timedOut"}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(passed, forKey: .passed)
    try container.encode(sessions, forKey: .sessions)
    try container.encode(replay, forKey: .replay)
    try container.encode(timedOut, forKey: .timedOut)
  }
}

extension DeployCheckReport: CustomStringConvertible {
  /// The report for people, grouped by cause.
  public var description: String {
    var lines: [String] = []
    lines.append(
      "\(sessions.total) saved sessions read: \(sessions.readable) readable, \(sessions.unreadableCount) unreadable")
    for cause in sessions.causes {
      lines.append("  unreadable: \(cause.count) × \(cause.reason) (e.g. session \(cause.example))")
    }
    if sessions.otherCauses > 0 { lines.append("  unreadable: \(sessions.otherCauses) for other reasons") }
    lines.append(
      "\(replay.sampled) recent sessions sampled: \(replay.replayed) replayed, \(replay.steps) steps, \(replay.actions) actions")
    for difference in replay.differences {
      lines.append(
        "  \(difference.allowed ? "allowed" : "DIFFERS"): \(difference.action): \(difference.steps) steps in "
          + "\(difference.sessions) sessions, first at \(difference.field) "
          + "(e.g. session \(difference.exampleSession) version \(difference.exampleVersion): \(difference.examplePatch))")
    }
    let skipped = replay.notReplayed
    lines.append(
      "not replayed: \(skipped.sessionsWithoutHistory) sessions without saved history, "
        + "\(skipped.sessionsWithUnreadableHistory) with unreadable history, "
        + "\(skipped.stepsBeforeReplayableStart) steps before a change actions cannot make, "
        + "\(skipped.stepsWithUndecodableActions) steps with undecodable actions")
    for (issue, count) in replay.issues.sorted(by: { $0.value > $1.value }) {
      lines.append("  issue: \(count) × \(issue)")
    }
    if timedOut { lines.append("stopped at the time limit") }
    lines.append(passed ? "PASSED" : "FAILED")
    return lines.joined(separator: "\n")
  }
}
