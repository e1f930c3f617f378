@_spi(Hosting) import Composable
import Foundation
import StoreHostJSON
import Synchronization

/// Records one session's history as its store runs: told by the store about every action it
/// reduces and who sent it (``Composable/StoreActionObserver``), and by the session about
/// every version, it makes one step of each send (its actions, and the version and patch
/// they made, or none) and of each change made elsewhere (a shared value), and keeps the
/// latest ones (``SessionHistory``).
///
/// The UUIDs and dates the reducer draws from its dependencies while reducing an action are
/// recorded with it (see ``recording(_:)-(UUIDGenerator)``), so a replay can give it the same.
/// Steps are saved with the session's state (``saving(through:)``).
final class HistoryRecorder<State: Encodable & Sendable, Action: Encodable & Sendable>: StoreActionObserver, Sendable {
  /// Why a step without actions was recorded.
  enum Event: String, Sendable {
    /// The session began here.
    case created
    /// The session was rebuilt from its saved state here (a restart, a takeover).
    case resumed
    /// Its history was cleared here.
    case cleared
  }

  private struct Recording {
    var history: SessionHistory
    /// The session's latest version and its state, for steps that do not change it.
    var version: Int
    var latest: SessionChanges<State>.Change?
    var latestCheckpoint: HistoryCheckpoint?
    /// The oldest kept step as of the last durable save: a save that keeps the same one
    /// finds no older step stored to delete.
    var savedFirstKeptStep: Int?

    /// The latest version's state as a checkpoint, made once.
    mutating func checkpointOfLatest() -> HistoryCheckpoint {
      if let latestCheckpoint { return latestCheckpoint }
      let snapshot = latest!.snapshot
      let made = HistoryCheckpoint { try snapshot.encodedState() }
      latestCheckpoint = made
      return made
    }
  }

  /// The state version (``Composable/MigratableState``) of this build.
  let stateVersion: Int
  private let recording: Mutex<Recording>
  /// Kept apart from ``recording``, and of a type that is not generic, so the store's calls
  /// for each action (through ``Composable/StoreActionObserver``, which reaches this class
  /// unspecialized) need no generic type's metadata looked up at run time.
  private let send = Mutex(SendInProgress())

  /// A recorder keeping `capacity` steps within `maxBytes` of step JSON, going on from
  /// `restored` (the steps saved with the session), and keeping saved steps in memory when
  /// its persistence does not (`keepsSavedSteps`); ``begin(_:at:json:)`` records where it
  /// starts.
  init(
    capacity: Int, maxBytes: Int, stateVersion: Int, keepsSavedSteps: Bool,
    restored: [HistoryRecord] = []
  ) {
    self.stateVersion = stateVersion
    self.recording = Mutex(
      Recording(
        history: SessionHistory(
          capacity: capacity, maxBytes: maxBytes, keepsSavedSteps: keepsSavedSteps, restored: restored),
        version: 0))
  }

  /// Records that the session starts (or starts again) at `version` with the state `json`.
  func begin(_ event: Event, at version: Int, json: [UInt8]) {
    recording.withLock { recording in
      recording.version = version
      recording.latest = nil
      recording.latestCheckpoint = HistoryCheckpoint(json: json)
      appendEvent(event, to: &recording)
    }
  }

  /// Forgets every step; the history starts again at the current version.
  func clear() {
    recording.withLock { recording in
      recording.history.removeAll()
      appendEvent(.cleared, to: &recording)
    }
  }

  private func appendEvent(_ event: Event, to recording: inout Recording) {
    let json = HistoryStepJSON.event(event.rawValue, version: recording.version, time: .now)
    recording.history.append(
      version: recording.version, stateVersion: stateVersion, json: json, checkpoint: recording.checkpointOfLatest())
  }

  // MARK: Recording

  /// Runs `send`, which sends a client's action to the store on this thread, with the
  /// action's JSON as the client sent it: its step records those bytes, with no need to
  /// encode the action again.
  func sendingClientAction<T>(json: [UInt8], _ send: () -> T) -> T {
    let thread = pthread_self()
    self.send.withLock { $0.sentJSON = (json, thread) }
    defer { self.send.withLock { $0.sentJSON = nil } }
    return send()
  }

  func willReduce(_ action: Action, origin: ActionOrigin) {
    let thread = pthread_self()
    let json = origin == .send ? send.withLock { $0.takeSentJSON(on: thread) } : nil
    let recorded = RecordedAction(action, json: json, source: origin == .send ? .client : .effect, time: .now)
    send.withLock { $0.add(recorded, startingASend: origin != .queued, on: thread) }
  }

  /// A new version of the state, the session's `version`, in the store's serial section: the
  /// step of the send being reduced, or of a change made elsewhere.
  func didPublish(_ change: SessionChanges<State>.Change, version: Int) {
    let time = Date.now
    let actions = send.withLock { $0.takeActions() }
    recording.withLock { recording in
      recording.version = version
      recording.latest = change
      recording.latestCheckpoint = nil
      let json = HistoryStepJSON.step(version: version, time: time, actions: actions, patch: change.patch?.operations)
      let checkpoint = change.patch == nil || recording.history.needsCheckpoint ? recording.checkpointOfLatest() : nil
      recording.history.append(version: version, stateVersion: stateVersion, json: json, checkpoint: checkpoint)
    }
  }

  /// The store refused the change of the send being reduced: it left no trace.
  func didRefuse() {
    _ = send.withLock { $0.takeActions() }
  }

  func didReduceSend() {
    let actions = send.withLock { send in
      send.reducingThread = nil
      return send.takeActions()
    }
    // Most sends made a version, whose step took their actions already.
    guard !actions.isEmpty else { return }
    let time = Date.now
    recording.withLock { recording in
      // The actions changed nothing: a step at the same version, with an empty patch.
      let json = HistoryStepJSON.step(
        version: recording.version, time: time, actions: actions, patch: HistoryStepJSON.noChange)
      let checkpoint = recording.history.needsCheckpoint ? recording.checkpointOfLatest() : nil
      recording.history.append(version: recording.version, stateVersion: stateVersion, json: json, checkpoint: checkpoint)
    }
  }

  /// `generator`, with each UUID it makes while an action is reduced recorded with that action.
  func recording(_ generator: UUIDGenerator) -> UUIDGenerator {
    UUIDGenerator { [self] in
      let uuid = generator()
      noteDrawn { $0.uuids.append(uuid) }
      return uuid
    }
  }

  /// `generator`, with each date it tells while an action is reduced recorded with that action.
  func recording(_ generator: DateGenerator) -> DateGenerator {
    DateGenerator { [self] in
      let date = generator()
      noteDrawn { $0.dates.append(date) }
      return date
    }
  }

  /// Adds a value drawn from a dependency to the action being reduced, when the calling
  /// thread is the one reducing it: an effect running meanwhile on another thread draws for
  /// itself, not for the action.
  private func noteDrawn(_ add: (inout RecordedAction) -> Void) {
    let thread = pthread_self()
    send.withLock { send in
      guard let reducing = send.reducingThread, pthread_equal(reducing, thread) != 0, !send.pending.isEmpty
      else { return }
      add(&send.pending[send.pending.count - 1])
    }
  }

  // MARK: Saving and reading

  /// What a save of the state at `version` stores of the history, and what to call once
  /// that save is durable.
  func saving(through version: Int) -> (write: @Sendable () -> HistoryWrite, didCommit: @Sendable () -> Void) {
    let written = Mutex<(lastStep: Int?, firstKeptStep: Int)?>(nil)
    return (
      write: { [self] in
        let (unsaved, savedFirstKept) = recording.withLock {
          ($0.history.unsavedSteps(through: version), $0.savedFirstKeptStep)
        }
        written.withLock { $0 = (unsaved.steps.last?.step, unsaved.firstKeptStep) }
        // States are encoded here, outside the lock, on the writer's thread.
        return HistoryWrite(
          records: unsaved.steps.map(\.record), firstKeptStep: unsaved.firstKeptStep,
          dropsEarlierSteps: unsaved.firstKeptStep != savedFirstKept)
      },
      didCommit: { [self] in
        guard let written = written.withLock({ $0 }) else { return }
        recording.withLock { recording in
          if let step = written.lastStep { recording.history.didSave(through: step) }
          recording.savedFirstKeptStep = written.firstKeptStep
        }
      }
    )
  }

  /// What memory holds of the kept steps, oldest first: all of them (`isComplete`), or those
  /// not saved yet; and the number of the oldest kept step.
  var inMemory: (steps: [SessionHistory.Step], firstKeptStep: Int, isComplete: Bool) {
    recording.withLock { ($0.history.steps, $0.history.firstKeptStep, $0.history.keepsSavedSteps) }
  }

  /// The steps always kept.
  var capacity: Int { recording.withLock { $0.history.capacity } }
}

/// What a ``HistoryRecorder`` knows of the send its store is reducing.
private struct SendInProgress: Sendable {
  /// The actions of the send being reduced, none once its step is recorded.
  var pending: [RecordedAction] = []
  /// The thread reducing them, while it is.
  var reducingThread: pthread_t?
  /// The JSON of the client's action the thread is sending (`sendingClientAction(json:_:)`).
  var sentJSON: (json: [UInt8], thread: pthread_t)?

  /// The JSON `sendingClientAction(json:_:)` gave for the action `thread` sends, once.
  mutating func takeSentJSON(on thread: pthread_t) -> [UInt8]? {
    guard let sent = sentJSON, pthread_equal(sent.thread, thread) != 0 else { return nil }
    sentJSON = nil
    return sent.json
  }

  /// Adds an action `thread` reduces: the first of a send (`startingASend`, sent by the
  /// store's owner or an effect), or one queued behind it in the same send.
  mutating func add(_ action: RecordedAction, startingASend: Bool, on thread: pthread_t) {
    if startingASend { pending.removeAll() }
    pending.append(action)
    reducingThread = thread
  }

  /// The send's actions, which leave it.
  mutating func takeActions() -> [RecordedAction] {
    guard !pending.isEmpty else { return [] }
    defer { pending = [] }
    return pending
  }
}
