/// The steps of one session's history that it keeps, oldest first, and which of them are
/// saved. A pure value, used under its recorder's lock.
///
/// At least the latest ``capacity`` steps are kept. The oldest kept step always holds the
/// whole state, and every later one the patch from the step before; one step in
/// ``checkpointInterval`` holds the whole state as well, so any version is a few patches
/// from a whole state, and older steps are dropped a checkpoint interval at a time: at most
/// ``capacity`` + ``checkpointInterval`` - 1 are kept.
struct SessionHistory: Sendable {
  /// One kept step.
  struct Step: Sendable {
    let step: Int
    let version: Int
    let stateVersion: Int
    /// As served: `{"version", "time", "kind", "actions", "patch"}`.
    let json: [UInt8]
    /// The whole state at ``version``, when this step keeps it.
    let checkpoint: HistoryCheckpoint?

    /// The step as stored, its state encoded now.
    var record: HistoryRecord {
      HistoryRecord(step: step, version: version, stateVersion: stateVersion, json: json, state: checkpoint?.json)
    }
  }

  /// The steps always kept.
  let capacity: Int
  /// One step in this many keeps the whole state.
  let checkpointInterval: Int
  private(set) var steps: [Step] = []
  /// The number the next step gets.
  private(set) var nextStep: Int
  /// Steps from this one on are not saved yet.
  private var firstUnsavedStep: Int
  /// Steps since the last that keeps the whole state.
  private var sinceCheckpoint = 0

  /// A history keeping `capacity` steps, going on from `restored` (the steps saved with the
  /// session, which are kept as saved).
  init(capacity: Int, restored: [HistoryRecord] = []) {
    precondition(capacity > 0, "a history keeps at least one step")
    self.capacity = capacity
    self.checkpointInterval = max(1, capacity / 10)
    let ordered = restored.sorted { $0.step < $1.step }
    // A saved history begins at a whole state; anything before one cannot be read.
    let readable = ordered.drop { $0.state == nil }
    for record in readable {
      steps.append(
        Step(
          step: record.step, version: record.version, stateVersion: record.stateVersion, json: record.json,
          checkpoint: record.state.map(HistoryCheckpoint.init(json:))))
      sinceCheckpoint = record.state == nil ? sinceCheckpoint + 1 : 0
    }
    nextStep = (ordered.last?.step ?? -1) + 1
    firstUnsavedStep = nextStep
    trim()
  }

  /// Whether the next step must keep the whole state.
  var needsCheckpoint: Bool { steps.isEmpty || sinceCheckpoint + 1 >= checkpointInterval }

  /// The number of the oldest step kept.
  var firstKeptStep: Int { steps.first?.step ?? nextStep }

  /// Adds a step after the last; `checkpoint` is required when ``needsCheckpoint`` says so.
  mutating func append(version: Int, stateVersion: Int, json: [UInt8], checkpoint: HistoryCheckpoint?) {
    precondition(checkpoint != nil || !steps.isEmpty, "the first step kept holds the whole state")
    steps.append(Step(step: nextStep, version: version, stateVersion: stateVersion, json: json, checkpoint: checkpoint))
    nextStep += 1
    sinceCheckpoint = checkpoint == nil ? sinceCheckpoint + 1 : 0
    trim()
  }

  /// Forgets every step; the next one must hold the whole state.
  mutating func removeAll() {
    steps.removeAll()
    sinceCheckpoint = 0
  }

  /// Drops the oldest steps down to the newest step holding the whole state that leaves at
  /// least ``capacity`` steps.
  private mutating func trim() {
    guard steps.count > capacity else { return }
    let newestStart = steps.count - capacity
    guard let start = steps[...newestStart].lastIndex(where: { $0.checkpoint != nil }), start > 0 else { return }
    steps.removeFirst(start)
  }

  /// The steps a save of the state at `version` writes: those not saved yet up to that
  /// version, with their states still to encode.
  func unsavedSteps(through version: Int) -> (steps: ArraySlice<Step>, firstKeptStep: Int) {
    let start = steps.firstIndex { $0.step >= firstUnsavedStep } ?? steps.endIndex
    let end = steps[start...].firstIndex { $0.version > version } ?? steps.endIndex
    return (steps[start..<end], firstKeptStep)
  }

  /// Records that the steps up to `step` are saved.
  mutating func didSave(through step: Int) {
    firstUnsavedStep = max(firstUnsavedStep, step + 1)
  }
}
