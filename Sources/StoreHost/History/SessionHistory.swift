/// The steps of one session's history that it keeps, oldest first, and which of them are
/// saved. A pure value, used under its recorder's lock.
///
/// At least the latest ``capacity`` steps are kept, unless their JSON (actions and patches)
/// passes ``maxBytes``. The oldest kept step always holds the whole state, and every later
/// one the patch from the step before; one step in ``checkpointInterval`` holds the whole
/// state as well, so any version is a few patches from a whole state, and older steps are
/// dropped a checkpoint interval at a time: at most ``capacity`` + ``checkpointInterval`` - 1
/// are kept, and beyond ``maxBytes`` only the steps back to the last whole state before it.
///
/// When the session's persistence stores the steps (``SessionPersistence/storesHistory``),
/// a step leaves memory once its save is durable: memory holds the steps not saved yet and
/// where the whole states are, and the rest is read back from storage. Otherwise every kept
/// step stays in memory.
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

  /// A kept step holding the whole state.
  struct Checkpoint: Sendable, Equatable {
    let step: Int
    let version: Int
    /// The bytes of the JSON of this step and those after it up to the next checkpoint.
    var bytes: Int
  }

  /// The steps always kept, unless they pass ``maxBytes``.
  let capacity: Int
  /// The most bytes of step JSON kept (whole states aside), give or take the steps back to
  /// the whole state before the limit.
  let maxBytes: Int
  /// One step in this many keeps the whole state.
  let checkpointInterval: Int
  /// Whether saved steps stay in memory (their persistence does not keep them).
  let keepsSavedSteps: Bool
  /// The kept steps in memory: every one when ``keepsSavedSteps``, else those not saved yet.
  private(set) var steps: [Step] = []
  /// The kept steps holding the whole state, oldest first: the first is the oldest kept step.
  private(set) var checkpoints: [Checkpoint] = []
  /// The number the next step gets.
  private(set) var nextStep: Int
  /// The version of the last step.
  private(set) var lastVersion: Int?
  /// Steps from this one on are not saved yet.
  private var firstUnsavedStep: Int
  /// Steps since the last that keeps the whole state.
  private var sinceCheckpoint = 0
  /// The bytes of the JSON of every kept step, in memory or saved.
  private var keptBytes = 0

  /// A history keeping `capacity` steps within `maxBytes`, going on from `restored` (the
  /// steps saved with the session, which are saved; unless ``keepsSavedSteps``, only the
  /// numbers and versions of those that hold the whole state and of the last are read: an
  /// outline will do, whose bytes count for the steps it holds only).
  init(
    capacity: Int, maxBytes: Int = SessionLimits().maxHistoryBytes, keepsSavedSteps: Bool,
    restored: [HistoryRecord] = []
  ) {
    precondition(capacity > 0, "a history keeps at least one step")
    self.capacity = capacity
    self.maxBytes = maxBytes
    self.checkpointInterval = max(1, capacity / 10)
    self.keepsSavedSteps = keepsSavedSteps
    let ordered = restored.sorted { $0.step < $1.step }
    let nextStep = (ordered.last?.step ?? -1) + 1
    self.nextStep = nextStep
    firstUnsavedStep = nextStep
    // A saved history begins at a whole state; anything before one cannot be read.
    for record in ordered.drop(while: { $0.state == nil }) {
      if keepsSavedSteps {
        steps.append(
          Step(
            step: record.step, version: record.version, stateVersion: record.stateVersion, json: record.json,
            checkpoint: record.state.map(HistoryCheckpoint.init(json:))))
      }
      count(record.json.count, holdingWholeState: record.state != nil, step: record.step, version: record.version)
      lastVersion = record.version
    }
    sinceCheckpoint = checkpoints.last.map { nextStep - 1 - $0.step } ?? 0
    trim()
  }

  /// The most steps kept at once.
  private var maxKept: Int { capacity + checkpointInterval }

  /// Whether the next step must keep the whole state.
  var needsCheckpoint: Bool { checkpoints.isEmpty || sinceCheckpoint + 1 >= checkpointInterval }

  /// The number of the oldest step kept.
  var firstKeptStep: Int { checkpoints.first?.step ?? nextStep }

  /// The versions of the oldest and the newest kept step.
  var keptVersions: ClosedRange<Int>? {
    guard let first = checkpoints.first, let lastVersion else { return nil }
    return first.version...lastVersion
  }

  /// Adds a step after the last; `checkpoint` is required when ``needsCheckpoint`` says so.
  mutating func append(version: Int, stateVersion: Int, json: [UInt8], checkpoint: HistoryCheckpoint?) {
    precondition(checkpoint != nil || !checkpoints.isEmpty, "the first step kept holds the whole state")
    // Grown as an array grows, but never past the most steps kept.
    if steps.count == steps.capacity { steps.reserveCapacity(min(max(steps.count * 2, 2), maxKept)) }
    steps.append(Step(step: nextStep, version: version, stateVersion: stateVersion, json: json, checkpoint: checkpoint))
    count(json.count, holdingWholeState: checkpoint != nil, step: nextStep, version: version)
    nextStep += 1
    lastVersion = version
    sinceCheckpoint = checkpoint == nil ? sinceCheckpoint + 1 : 0
    trim()
  }

  /// Forgets every step; the next one must hold the whole state.
  mutating func removeAll() {
    steps = []
    checkpoints.removeAll()
    lastVersion = nil
    sinceCheckpoint = 0
    keptBytes = 0
  }

  /// Counts a kept step of `bytes` bytes of JSON.
  private mutating func count(_ bytes: Int, holdingWholeState: Bool, step: Int, version: Int) {
    if holdingWholeState {
      checkpoints.append(Checkpoint(step: step, version: version, bytes: bytes))
    } else {
      checkpoints[checkpoints.count - 1].bytes += bytes
    }
    keptBytes += bytes
  }

  /// Drops the oldest steps down to the newest step holding the whole state that leaves at
  /// least ``capacity`` steps, or that leaves no more than ``maxBytes``.
  private mutating func trim() {
    while checkpoints.count > 1, nextStep - checkpoints[1].step >= capacity || keptBytes > maxBytes {
      keptBytes -= checkpoints.removeFirst().bytes
    }
    let firstKept = firstKeptStep
    if let first = steps.first, first.step < firstKept {
      removeFirstSteps(steps.firstIndex { $0.step >= firstKept } ?? steps.count)
    }
  }

  /// Drops the `count` oldest steps in memory, and the room they leave once it is most of the
  /// array: a burst of steps waiting for their save does not leave its high-water mark behind
  /// in every session.
  private mutating func removeFirstSteps(_ count: Int) {
    steps.removeFirst(count)
    if steps.isEmpty {
      steps = []
    } else if steps.capacity > 2 * steps.count + 8 {
      // `Array(steps)` would share the buffer: copy into one of the size needed.
      var compact: [Step] = []
      compact.reserveCapacity(steps.count)
      compact.append(contentsOf: steps)
      steps = compact
    }
  }

  /// The steps a save of the state at `version` writes: those not saved yet up to that
  /// version, with their states still to encode.
  func unsavedSteps(through version: Int) -> (steps: ArraySlice<Step>, firstKeptStep: Int) {
    let start = steps.firstIndex { $0.step >= firstUnsavedStep } ?? steps.endIndex
    let end = steps[start...].firstIndex { $0.version > version } ?? steps.endIndex
    return (steps[start..<end], firstKeptStep)
  }

  /// Records that the steps up to `step` are saved; unless ``keepsSavedSteps``, they leave
  /// memory.
  mutating func didSave(through step: Int) {
    firstUnsavedStep = max(firstUnsavedStep, step + 1)
    guard !keepsSavedSteps, let first = steps.first, first.step <= step else { return }
    removeFirstSteps(steps.firstIndex { $0.step > step } ?? steps.count)
  }
}
