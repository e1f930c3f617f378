/// What a ``Store`` runs on: the root core that owns state and effects, or a scoped view of
/// a parent core. Subclasses override every method.
class StoreCore<State: Sendable, Action: Sendable>: @unchecked Sendable {
  func send(_ action: Action) -> StoreTask { fatalError("abstract") }
  var snapshot: StoreSnapshot<State> { fatalError("abstract") }
  func observe(_ onChange: @escaping @Sendable (StoreSnapshot<State>) -> Void) -> StoreObservation {
    fatalError("abstract")
  }
  func tearDown() { fatalError("abstract") }
  var runningEffectCount: Int { fatalError("abstract") }
  /// The version of ``snapshot``, read without copying the state.
  var snapshotVersion: Int { fatalError("abstract") }
  /// The root store's running effect tasks, by id.
  var runningEffectTasks: [UInt64: Task<Void, Never>] { fatalError("abstract") }
}

/// A child's view of a parent core: state through a function, actions embedded into the parent's.
final class ScopedCore<ParentState: Sendable, ParentAction: Sendable, State: Sendable, Action: Sendable>:
  StoreCore<State, Action>, @unchecked Sendable
{
  let parent: StoreCore<ParentState, ParentAction>
  let toState: @Sendable (ParentState) -> State
  let fromAction: @Sendable (Action) -> ParentAction

  init(
    parent: StoreCore<ParentState, ParentAction>,
    toState: @escaping @Sendable (ParentState) -> State,
    fromAction: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
  }

  override func send(_ action: Action) -> StoreTask { parent.send(fromAction(action)) }

  override var snapshot: StoreSnapshot<State> {
    let parentSnapshot = parent.snapshot
    return StoreSnapshot(
      state: toState(parentSnapshot.state), version: parentSnapshot.version, sharedValues: parentSnapshot.sharedValues)
  }

  override func observe(
    _ onChange: @escaping @Sendable (StoreSnapshot<State>) -> Void
  ) -> StoreObservation {
    let toState = self.toState
    return parent.observe { onChange(StoreSnapshot(state: toState($0.state), version: $0.version)) }
  }

  override func tearDown() { parent.tearDown() }

  override var runningEffectCount: Int { parent.runningEffectCount }

  override var snapshotVersion: Int { parent.snapshotVersion }

  override var runningEffectTasks: [UInt64: Task<Void, Never>] { parent.runningEffectTasks }
}
