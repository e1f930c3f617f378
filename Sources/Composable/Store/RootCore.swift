import Synchronization

/// The core of a root store: owns the state, reduces one action at a time under a lock, and
/// runs effects in tasks it can cancel by id. Everything mutable is guarded by `lock`.
///
/// It follows the shared values its state holds (found by reflection when it starts, and
/// after an action in the parts of the state it changed): a change of one
/// made anywhere publishes a new version. Changes made while reducing are delivered to
/// other stores after `lock` is released, so stores never wait for each other's locks.
final class RootCore<State: Sendable, Action: Sendable>: StoreCore<State, Action>, @unchecked Sendable {
  private let lock = Mutex(())
  private let reduce: (inout State, Action) -> Effect<Action>
  private let dependencies: DependencyValues
  private let isDuplicate: (@Sendable (State, State) -> Bool)?
  /// Decides whether a change a `send` makes may become a version (see ``Store/init(initialState:reducer:withDependencies:acceptingChange:observingActions:)``).
  private let acceptChange: (@Sendable (StoreSnapshot<State>) -> Bool)?
  /// Told about every action reduced (see ``StoreActionObserver``).
  private let actionObserver: (any StoreActionObserver<Action>)?

  /// The state, in a buffer the snapshots of it share: a snapshot copies no state, and an
  /// action copies it once, when a snapshot still holds the buffer.
  private var storage: SnapshotStorage<State>
  private var state: State { _read { yield storage.state } }
  private var version = 0
  private var isTornDown = false
  /// Actions waiting in the current `send`: the sent one, then those of `.send` effects.
  private var queue: [Action] = []
  /// Tasks started by the current `send`.
  private var started: [Task<Void, Never>] = []
  /// Effect tasks the current `send` cancels once its change is accepted.
  private var cancelling: [UInt64] = []
  private var effects = EffectTasks() {
    didSet { runningEffects.store(effects.count, ordering: .relaxed) }
  }
  /// `effects.count`, readable from any thread without the lock.
  private let runningEffects = Atomic<Int>(0)
  /// The work this store's effects run with `withTaskCancellation(id:)`.
  private let taskCancellations = TaskCancellations()
  /// Where a reducer's `Task.cancel(id:)` goes: `lock` is held, so the ids wait, like those
  /// of `.cancel(id:)` effects, for the change to be accepted.
  private let reducingScope: CancellationScope
  private let cancelledWhileReducing = PendingCancellations()
  /// When each throttle id last let an effect run, as its clock's instant.
  private var throttleRuns: [EffectID: any Sendable] = [:]
  /// Few per store (usually one), so a list rather than a dictionary.
  private var observers: [Observer] = []
  /// `!observers.isEmpty`, kept apart: generic code would look the array's metadata up to
  /// answer, on every action.
  private var isObserved = false

  private struct Observer {
    let id: UInt64
    let onChange: @Sendable (StoreSnapshot<State>) -> Void
  }
  private var nextObserverID: UInt64 = 0
  /// The shared values the state holds, followed so their changes publish new versions.
  private let sharedSubscriptions = StoreSharedSubscriptions()
  /// The shared values changed by the current `send`.
  private let sharedChanges = SharedDelivery.Collector()

  init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    dependencies: DependencyValues,
    isDuplicate: (@Sendable (State, State) -> Bool)?,
    acceptChange: (@Sendable (StoreSnapshot<State>) -> Bool)? = nil,
    actionObserver: (any StoreActionObserver<Action>)? = nil
  ) {
    self.storage = SnapshotStorage(initialState)
    self.reduce = reducer._reduceFunction()
    self.dependencies = dependencies
    self.isDuplicate = isDuplicate
    self.acceptChange = acceptChange
    self.actionObserver = actionObserver
    self.reducingScope = CancellationScope(store: cancelledWhileReducing, tasks: taskCancellations)
    super.init()
    lock.withLock { _ in followSharedValues() }
  }

  override func send(_ action: Action) -> StoreTask {
    send(action, fromEffect: false)
  }

  /// Reduces `action`; one sent by an effect whose task was cancelled is dropped, checked
  /// under the lock so that an effect cancelled by a refused change never sends.
  private func send(_ action: Action, fromEffect: Bool) -> StoreTask {
    // A struct, not a tuple: generic code would look a tuple's metadata up on every send.
    let sent = lock.withLock { _ -> Sent in
      guard !isTornDown, !(fromEffect && Task.isCancelled) else { return Sent(task: StoreTask(tasks: []), collected: nil) }
      let task = SharedDelivery.collecting(into: sharedChanges) {
        reduceQueue(startingWith: action, origin: fromEffect ? .effect : .send)
      }
      return Sent(task: task, collected: sharedChanges.take())
    }
    // Observers' deferred work runs, and other stores holding the shared values changed
    // here hear of it, now, with no lock held.
    sent.collected?.run()
    return sent.task
  }

  private struct Sent {
    let task: StoreTask
    let collected: SharedDelivery.Collected?
  }

  /// Reduces `action` and the actions its `.send` effects queue, then publishes the new
  /// state. A change that ``acceptChange`` refuses is undone: the state is restored, the
  /// tasks the actions started are cancelled before they can send, and the cancellations
  /// they asked for are dropped. Called with `lock` held.
  private func reduceQueue(startingWith action: Action, origin: ActionOrigin) -> StoreTask {
    defer { actionObserver?.didReduceSend() }
    let previous: SnapshotStorage<State>? = isDuplicate == nil ? nil : storage
    DependencyValues.$current.withValue(dependencies) {
      CancellationScope.$current.withValue(reducingScope) {
        reduceOne(action, origin: origin)
        // The actions its `.send` effects queued, and theirs, in order. Most sends queue
        // none, and touch the queue (an array of a generic element) not at all.
        var index = 0
        while index < queue.count {
          reduceOne(queue[index], origin: .queued)
          index += 1
        }
      }
    }
    if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
    defer {
      if !started.isEmpty { started.removeAll(keepingCapacity: true) }
      if !cancelling.isEmpty { cancelling.removeAll(keepingCapacity: true) }
    }
    let isUnchanged = previous.map { isDuplicate?($0.state, state) ?? false } ?? false
    if let previous {
      followSharedValues(from: previous)
    } else if sharedSubscriptions.needsScan(stateChanged: !isUnchanged) {
      followSharedValues()
    }
    let sharedChanged = sharedSubscriptions.advance(sharedChanges.boxes)
    if sharedChanged || !isUnchanged {
      // The snapshot is made only for someone to see: a generic value costs a metadata lookup.
      guard let acceptChange, let previous else {
        publish()
        return finish()
      }
      let next = StoreSnapshot(storage: storage, version: version + 1, sharedValues: sharedSubscriptions.snapshot())
      guard acceptChange(next) else {
        storage = previous
        followSharedValues()
        for task in started { task.cancel() }
        _ = cancelledWhileReducing.take()
        return StoreTask(tasks: [], isRefused: true)
      }
      publish(next)
    }
    return finish()
  }

  /// Reduces one action and starts its effect. Called with `lock` held.
  private func reduceOne(_ action: Action, origin: ActionOrigin) {
    actionObserver?.willReduce(action, origin: origin)
    let effect = storage.withUniqueState { reduce(&$0, action) }
    start(effect, cancelIDs: [])
  }

  /// Applies the cancellations the current `send` asked for; its tasks. Called with `lock` held.
  private func finish() -> StoreTask {
    for id in cancelledWhileReducing.take() { cancelling += effects.taskIDs(for: id) }
    if !cancelling.isEmpty { effects.cancel(tasks: cancelling) }
    return started.isEmpty ? StoreTask(tasks: []) : StoreTask(tasks: started)
  }

  /// The current state as the next version, told to the observers. Called with `lock` held.
  private func publish() {
    version += 1
    guard isObserved else { return }
    tell(StoreSnapshot(storage: storage, version: version, sharedValues: sharedSubscriptions.snapshot()))
  }

  /// `next`, made for ``acceptChange``, as the next version. Called with `lock` held.
  private func publish(_ next: StoreSnapshot<State>) {
    version += 1
    tell(next)
  }

  private func tell(_ snapshot: StoreSnapshot<State>) {
    for observer in observers { observer.onChange(snapshot) }
  }

  // MARK: Shared state

  /// Follows the shared values the state holds now. Called with `lock` held.
  private func followSharedValues() {
    sharedSubscriptions.update(from: state, onChange: onSharedValueChange)
  }

  /// Follows the shared values the state holds now, searching only the parts that differ
  /// from `previous`, the state at the last look. Called with `lock` held.
  private func followSharedValues(from previous: SnapshotStorage<State>) {
    previous.withUnsafeStatePointer { previous in
      storage.withUnsafeStatePointer { state in
        sharedSubscriptions.update(fromValueAt: previous, to: state, onChange: onSharedValueChange)
      }
    }
  }

  /// What the shared values this store follows call when they change.
  private var onSharedValueChange: @Sendable (ObjectIdentifier, SharedChange) -> Void {
    { [weak self] id, change in self?.sharedValueDidChange(id, change) }
  }

  /// A shared value the state holds changed outside this store's `send`: publish the state
  /// again, unless this store already published that change.
  private func sharedValueDidChange(_ id: ObjectIdentifier, _ change: SharedChange) {
    let collected = lock.withLock { _ -> SharedDelivery.Collected? in
      guard !isTornDown, sharedSubscriptions.advance(id, to: change) else { return nil }
      SharedDelivery.collecting(into: sharedChanges) { publish() }
      return sharedChanges.take()
    }
    collected?.run()
  }

  override var snapshot: StoreSnapshot<State> {
    // With its shared values as of this version, so a patch from it sees their next change.
    lock.withLock { _ in StoreSnapshot(storage: storage, version: version, sharedValues: sharedSubscriptions.snapshot()) }
  }

  override func observe(
    _ onChange: @escaping @Sendable (StoreSnapshot<State>) -> Void
  ) -> StoreObservation {
    let id = lock.withLock { _ in
      defer { nextObserverID += 1 }
      observers.append(Observer(id: nextObserverID, onChange: onChange))
      isObserved = true
      onChange(StoreSnapshot(storage: storage, version: version))
      return nextObserverID
    }
    return StoreObservation { [weak self] in
      guard let self else { return }
      lock.withLock { _ in
        observers.removeAll { $0.id == id }
        isObserved = !observers.isEmpty
      }
    }
  }

  override func tearDown() {
    lock.withLock { _ in
      isTornDown = true
      effects.cancelAll()
      sharedSubscriptions.removeAll()
    }
  }

  /// Read without the lock: a server asks it before every action, while the store may be busy.
  override var runningEffectCount: Int { runningEffects.load(ordering: .relaxed) }

  override var snapshotVersion: Int { lock.withLock { _ in version } }

  override var runningEffectTasks: [UInt64: Task<Void, Never>] {
    lock.withLock { _ in effects.running }
  }

  // MARK: Effects (called with `lock` held)

  /// Starts `effect`: queues `.send` actions, starts tasks for async work, applies cancellations.
  private func start(_ effect: Effect<Action>, cancelIDs: [EffectID]) {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      queue.append(action)
    case let .run(priority, operation):
      started.append(spawn(priority: priority, cancelIDs: cancelIDs) { send in await operation(send) })
    case let .merge(effects):
      for effect in effects { start(effect, cancelIDs: cancelIDs) }
    case let .concatenate(effects):
      started.append(
        spawn(priority: nil, cancelIDs: cancelIDs) { [self] send in
          await runInTask(.concatenate(effects), cancelIDs: cancelIDs, send: send)
        })
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { cancelling += effects.taskIDs(for: id) }
      start(effect, cancelIDs: cancelIDs + id.withEnclosingNamespaces)
    case let .cancel(id):
      cancelling += effects.taskIDs(for: id)
      taskCancellations.cancel(id)
    case let .throttle(window, effect):
      start(throttled(effect, window: window), cancelIDs: cancelIDs)
    }
  }

  /// What a throttled effect becomes now: itself when its window is open, `.none` when it
  /// is dropped, or a delayed run at the end of the window.
  private func throttled(_ effect: Effect<Action>, window: ThrottleWindow) -> Effect<Action> {
    let now = window.now()
    guard let last = throttleRuns[window.id], window.isClosed(last, now) else {
      throttleRuns[window.id] = now
      return effect
    }
    if !window.latest && effects.isRunning(window.pendingID) { return .none }
    let end = window.end(last)
    let waitForWindow = Effect<Action>(.run(nil) { _ in try? await window.sleep(end) })
    let recordRun = Effect<Action>(.run(nil) { [self] _ in
      lock.withLock { _ in throttleRuns[window.id] = end }
    })
    return Effect<Action>(
      .cancellable(
        id: window.pendingID, cancelInFlight: window.latest,
        .concatenate([waitForWindow, recordRun, effect])))
  }

  /// Starts a task for `work`, registered under `cancelIDs`, with the store's dependencies.
  private func spawn(
    priority: TaskPriority?,
    cancelIDs: [EffectID],
    _ work: @escaping @Sendable (Send<Action>) async -> Void
  ) -> Task<Void, Never> {
    let taskID = effects.reserveID()
    let send = Send<Action> { [self] action in _ = self.send(action, fromEffect: true) }
    let scope = CancellationScope(store: self, tasks: taskCancellations)
    let task = DependencyValues.$current.withValue(dependencies) {
      CancellationScope.$current.withValue(scope) {
        Task(priority: priority) { [self] in
          await work(send)
          lock.withLock { _ in effects.remove(taskID) }
        }
      }
    }
    effects.insert(task, id: taskID, cancelIDs: cancelIDs)
    return task
  }

  // MARK: Effects inside a running task (lock not held)

  /// Interprets `effect` within the current task: used for the parts of concatenated effects.
  private func runInTask(_ effect: Effect<Action>, cancelIDs: [EffectID], send: Send<Action>) async {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      await send(action)
    case let .run(_, operation):
      await operation(send)
    case let .merge(effects):
      await withTaskGroup(of: Void.self) { group in
        for effect in effects {
          group.addTask { await self.runInTask(effect, cancelIDs: cancelIDs, send: send) }
        }
      }
    case let .concatenate(effects):
      for effect in effects {
        guard !Task.isCancelled else { return }
        await runInTask(effect, cancelIDs: cancelIDs, send: send)
      }
    case let .cancellable(id, cancelInFlight, effect):
      let task = lock.withLock { _ -> Task<Void, Never>? in
        guard !isTornDown else { return nil }
        // Work inside work with the same id is not in flight before it: the outer part cancelled that.
        if cancelInFlight && !cancelIDs.contains(id) { effects.cancel(id) }
        let ids = cancelIDs + id.withEnclosingNamespaces
        return spawn(priority: nil, cancelIDs: ids) { [self] send in
          await runInTask(effect, cancelIDs: ids, send: send)
        }
      }
      guard let task else { return }
      await task.cancellableValue
    case let .cancel(id):
      cancelEffects(id)
      taskCancellations.cancel(id)
    case let .throttle(window, effect):
      await runInTask(lock.withLock { _ in throttled(effect, window: window) }, cancelIDs: cancelIDs, send: send)
    }
  }
}

extension RootCore: EffectCancelling {
  /// `Task.cancel(id:)` in one of this store's effects. Called with `lock` not held.
  func cancelEffects(_ id: EffectID) {
    lock.withLock { _ in effects.cancel(id) }
  }
}

/// The running effect tasks of one root store, by task and by cancellation id.
struct EffectTasks {
  private var nextID: UInt64 = 0
  private var tasks: [UInt64: (task: Task<Void, Never>, cancelIDs: [EffectID])] = [:]
  private var byCancelID: [EffectID: Set<UInt64>] = [:]

  var count: Int { tasks.count }

  /// The running tasks by their ids.
  var running: [UInt64: Task<Void, Never>] { tasks.mapValues(\.task) }

  mutating func reserveID() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }

  mutating func insert(_ task: Task<Void, Never>, id: UInt64, cancelIDs: [EffectID]) {
    tasks[id] = (task, cancelIDs)
    for cancelID in cancelIDs { byCancelID[cancelID, default: []].insert(id) }
  }

  mutating func remove(_ id: UInt64) {
    guard let entry = tasks.removeValue(forKey: id) else { return }
    for cancelID in entry.cancelIDs {
      byCancelID[cancelID]?.remove(id)
      if byCancelID[cancelID]?.isEmpty == true { byCancelID[cancelID] = nil }
    }
  }

  func cancel(_ cancelID: EffectID) {
    cancel(tasks: taskIDs(for: cancelID))
  }

  /// The running tasks registered under `cancelID`.
  func taskIDs(for cancelID: EffectID) -> [UInt64] {
    Array(byCancelID[cancelID] ?? [])
  }

  func cancel(tasks ids: [UInt64]) {
    for id in ids { tasks[id]?.task.cancel() }
  }

  func isRunning(_ cancelID: EffectID) -> Bool { byCancelID[cancelID] != nil }

  func cancelAll() {
    for entry in tasks.values { entry.task.cancel() }
  }
}
