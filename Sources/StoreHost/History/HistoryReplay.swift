import Composable
import Foundation
import StoreHostJSON
import Synchronization

/// Runs a session's recorded actions (a ``HistoryScript``) through this build's reducer,
/// from the script's first state, with the effects they return dropped (what the effects
/// sent back is among the recorded actions), and compares each state with the recorded one.
struct HistoryReplay<State: Codable & Sendable, Action: Decodable & Sendable> {
  /// Where the replayed states first differ from the recorded ones.
  struct Difference {
    let version: Int
    /// The step's recorded actions, as JSON.
    let actions: [JSONValue]
    /// From the recorded state to the replayed one; empty when the step could not be run.
    let patch: [JSONPatchOperation]
    /// Why the step could not be run (an action this build cannot decode), if it could not.
    let error: String?
  }

  /// What a replay found.
  struct Outcome {
    /// The state the replay reached: at the first difference, or after the last step.
    let state: State
    /// The version the replay stopped at.
    let version: Int
    /// The steps run, and their actions.
    let stepsRun: Int
    let actionsRun: Int
    /// Every step whose state differed, in order: the first only, unless the replay went on
    /// from the recorded states (``run(_:resyncing:)``).
    let differences: [Difference]
    var firstDifference: Difference? { differences.first }
    /// Issues the reducer's dependencies reported meanwhile (more UUIDs asked for than
    /// were recorded, say).
    let issues: [String]
  }

  let feature: Reduce<State, Action>
  /// The dependencies the reducer runs with (the recorded UUIDs and dates are set on top).
  let dependencies: @Sendable (inout DependencyValues) -> Void
  /// The JSON this build writes for a state.
  let write: (State) throws -> JSONValue

  /// Replays `script`; stops at the first step whose state differs, or, with `resync`, goes
  /// on from the recorded state after it (which `resync` decodes), to find every step that
  /// differs.
  func run(_ script: HistoryScript<State>, resyncing resync: ((JSONValue) throws -> State)? = nil) -> Outcome {
    let issues = CollectedIssues()
    var differences: [Difference] = []
    var state = script.start
    var version = script.startVersion
    var stepsRun = 0
    var actionsRun = 0
    for step in script.steps where !step.actions.isEmpty {
      version = step.version
      stepsRun += 1
      do {
        for recorded in step.actions {
          let action = try recorded.action.decode(as: Action.self)
          IssueReporters.$current.withValue([issues]) {
            withDependencies({ values in
              dependencies(&values)
              if !recorded.uuids.isEmpty { values.uuid = .sequence(recorded.uuids.compactMap(UUID.init(uuidString:))) }
              if !recorded.dates.isEmpty { values.date = .sequence(recorded.dates.map(Date.init(timeIntervalSinceReferenceDate:))) }
            }) {
              _ = feature.reduce(into: &state, action: action)
            }
          }
          actionsRun += 1
        }
        let replayed = try write(state)
        if replayed == step.expected { continue }
        differences.append(
          Difference(
            version: step.version, actions: step.actions.map(\.action),
            patch: JSONPatch.diff(from: step.expected, to: replayed), error: nil))
      } catch {
        differences.append(
          Difference(version: step.version, actions: step.actions.map(\.action), patch: [], error: "\(error)"))
      }
      guard let resync, let recorded = try? resync(step.expected) else { break }
      state = recorded
    }
    return Outcome(
      state: state, version: version, stepsRun: stepsRun, actionsRun: actionsRun, differences: differences,
      issues: issues.messages)
  }
}

/// Keeps the issues reported to it.
private final class CollectedIssues: IssueReporter {
  private let collected = Mutex<[String]>([])

  func reportIssue(_ message: String, at location: SourceLocation) {
    collected.withLock { $0.append(message) }
  }

  var messages: [String] { collected.withLock { $0 } }
}
