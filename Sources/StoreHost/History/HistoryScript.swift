import StoreHostJSON

/// The part of a session's history a replay (or an exported test) runs: from the latest
/// state that actions alone cannot lead to (where the kept history starts, a shared value
/// changed elsewhere, a restart or a clearing that changed the state, a state that cannot
/// be read) to the end, every state as this build decodes and writes it.
struct HistoryScript<State> {
  /// One step after the start: one send's actions and the state they led to.
  struct Step {
    let version: Int
    /// Milliseconds since 1970.
    let time: Int64
    /// In the order they were reduced; empty for a restart that left the state as it was.
    let actions: [RecordedHistory.Action]
    /// The state after the step, as this build writes it.
    let expected: JSONValue
    /// From the state before to ``expected``.
    let patch: [JSONPatchOperation]
  }

  let startVersion: Int
  /// The state at ``startVersion``, decoded, and as this build writes it.
  let start: State
  let startJSON: JSONValue
  let steps: [Step]
  /// Kept steps before the start, which the script leaves out.
  let skippedSteps: Int

  /// The script of `history`; `read` decodes a state's JSON (in this build's state version)
  /// and gives it with the JSON this build writes for it.
  ///
  /// - Throws: ``HistoryScriptError/noReadableState`` when no kept state can be read.
  init(_ history: RecordedHistory, read: (JSONValue) throws -> (State, JSONValue)) throws {
    let read = history.steps.map { step in step.state.flatMap { try? read($0) } }
    // The start: the last step whose state a replay cannot reach from the step before.
    var startIndex: Int?
    for (index, step) in history.steps.enumerated() {
      guard let state = read[index]?.1 else {
        startIndex = nil
        continue
      }
      if startIndex == nil || (step.kind != "actions" && state != read[index - 1]?.1) { startIndex = index }
    }
    guard let startIndex, let (start, startJSON) = read[startIndex] else { throw HistoryScriptError.noReadableState }
    self.startVersion = history.steps[startIndex].version
    self.start = start
    self.startJSON = startJSON
    self.skippedSteps = startIndex
    var steps: [Step] = []
    var before = startJSON
    for index in history.steps.indices.dropFirst(startIndex + 1) {
      let step = history.steps[index]
      let after = read[index]!.1
      steps.append(
        Step(
          version: step.version, time: step.time, actions: step.actions, expected: after,
          patch: JSONPatch.diff(from: before, to: after)))
      before = after
    }
    self.steps = steps
  }
}

/// Why a session's history cannot be replayed.
enum HistoryScriptError: Error {
  /// None of the kept states can be read by this build.
  case noReadableState
}
