import Synchronization

/// Runs a feature: holds its state, reduces the actions sent to it one at a time, and runs
/// the effects its reducer returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// } withDependencies: {
///   $0.uuid = .incrementing
/// }
/// store.send(.incrementButtonTapped)
/// store.count  // 1
/// ```
///
/// A store is not bound to any actor: `send` may be called from any thread or task. Each
/// store reduces one action at a time, in order; different stores run in parallel. The
/// effects of a root store are cancelled when it is deinitialized or torn down.
@dynamicMemberLookup
public final class Store<State: Sendable, Action: Sendable>: Sendable {
  let core: StoreCore<State, Action>
  /// The store this one was scoped from, kept alive while this one lives.
  private let parent: (any Sendable)?
  /// What `withObservationTracking` sees of this store, made at its first tracked read.
  private let observation = Mutex<StoreObservationTracking?>(nil)
  /// The stores scoped from this one with key paths, by path.
  let scopedStores = ScopedStores()

  init(core: StoreCore<State, Action>, parent: (any Sendable)?) {
    self.core = core
    self.parent = parent
    Logger.shared.log("\(Self.typeName).init")
  }

  /// A root store running `reducer` from `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The first state; evaluated with the store's dependencies.
  ///   - reducer: The feature's reducer; built with the store's dependencies.
  ///   - prepareDependencies: Overrides for this store's dependencies, on top of those of
  ///     the task creating it.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState, reducer: reducer, prepareDependencies: prepareDependencies,
      isDuplicate: nil)
  }

  /// A root store running `reducer` from `initialState`. Because the state is `Equatable`,
  /// an action that leaves it unchanged does not count as a new version.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where State: Equatable {
    self.init(
      initialState: initialState, reducer: reducer, prepareDependencies: prepareDependencies,
      isDuplicate: { $0 == $1 })
  }

  /// A root store that asks `acceptChange` about every change a `send` would make, before
  /// it becomes a version: a server limiting the size of a session's state, say.
  ///
  /// `acceptChange` runs in the store's serial section with the would-be next version. When
  /// it returns `false` the send changes nothing: the state is restored, the effects the
  /// actions started are cancelled before they can send anything, the cancellations they
  /// asked for are dropped, and the returned task's `isRefused` is `true`. Shared values
  /// the actions changed stay changed, since other stores may already see them.
  ///
  /// `actionObserver`, when given, is told about every action reduced and who sent it (see
  /// ``StoreActionObserver``).
  @_spi(Hosting) public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil,
    acceptingChange acceptChange: @escaping @Sendable (StoreSnapshot<State>) -> Bool,
    observingActions actionObserver: (any StoreActionObserver<Action>)? = nil
  ) where State: Equatable {
    self.init(
      initialState: initialState, reducer: reducer, prepareDependencies: prepareDependencies,
      isDuplicate: { $0 == $1 }, acceptChange: acceptChange, actionObserver: actionObserver)
  }

  private convenience init<R: Reducer<State, Action>>(
    initialState: () -> R.State,
    reducer: () -> R,
    prepareDependencies: ((inout DependencyValues) -> Void)?,
    isDuplicate: (@Sendable (State, State) -> Bool)?,
    acceptChange: (@Sendable (StoreSnapshot<State>) -> Bool)? = nil,
    actionObserver: (any StoreActionObserver<Action>)? = nil
  ) {
    var dependencies = DependencyValues.current
    if let prepareDependencies { DependencyValues.prepare(&dependencies, with: prepareDependencies) }
    let (state, reducer) = DependencyValues.$current.withValue(dependencies) { (initialState(), reducer()) }
    self.init(
      core: RootCore(
        initialState: state, reducer: reducer, dependencies: dependencies,
        isDuplicate: isDuplicate, acceptChange: acceptChange, actionObserver: actionObserver),
      parent: nil)
  }

  deinit {
    Logger.shared.log("\(Self.typeName).deinit")
    if parent == nil { core.tearDown() }
  }

  /// `Store<(), ()>`, as the logger names stores.
  private static var typeName: String { _typeName(Store.self, qualified: false) }

  /// Sends `action` to the reducer and starts the effects it returns.
  ///
  /// Returns once the action is reduced; the returned task tracks the effects it started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action)
  }

  /// Sends the action a case key path names, when its case has no payload:
  /// `store.send(\.counter.incrementButtonTapped)`.
  @discardableResult
  public func send(_ action: CaseKeyPath<Action, Void>) -> StoreTask {
    send(action())
  }

  /// Sends the action a case key path names with `value` as its payload:
  /// `store.send(\.binding.sliderValue, 2)`.
  @discardableResult
  public func send<Value>(_ action: CaseKeyPath<Action, Value>, _ value: Value) -> StoreTask {
    send(action(value))
  }

  /// Calls `body` with the current state.
  public func withState<Value>(_ body: (State) throws -> Value) rethrows -> Value {
    trackAccess()
    return try body(core.snapshot.state)
  }

  /// The current state. Observable (see `withObservationTracking`): any change of it
  /// notifies.
  public var state: State {
    trackAccess()
    return core.snapshot.state
  }

  /// A field of the current state: `store.count`. Observable (see `withObservationTracking`).
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    trackAccess()
    return core.snapshot.state[keyPath: keyPath]
  }

  /// Registers a read of the state for `withObservationTracking`.
  private func trackAccess() {
    let tracking = observation.withLock { tracking in
      if let tracking { return tracking }
      let made = StoreObservationTracking(following: self)
      tracking = made
      return made
    }
    tracking.registrar.access(self, keyPath: \.snapshot)
  }

  /// The current state and its version, read together.
  public var snapshot: StoreSnapshot<State> { core.snapshot }

  /// The version of the current ``snapshot``, read without copying the state (a copy
  /// retains everything the state holds).
  @_spi(Hosting) public var version: Int { core.snapshotVersion }

  /// Calls `onChange` with the current snapshot at once, then with each new one, in version
  /// order, until the returned observation is cancelled or released.
  ///
  /// `onChange` runs inside the store's serial section: it must be quick, must not block
  /// and must not send actions to this store.
  public func observe(
    _ onChange: @escaping @Sendable (StoreSnapshot<State>) -> Void
  ) -> StoreObservation {
    core.observe(onChange)
  }

  /// Runs `work` on the current thread once the serial section of the store publishing now
  /// has ended (at once when called outside one). An observer (``observe(_:)``) uses it for
  /// work that must not hold the store's lock, such as writing the new version to clients.
  @_spi(Hosting) public static func afterSerialSection(_ work: @escaping () -> Void) {
    SharedDelivery.afterUnlock(work)
  }

  /// The number of effect tasks of the root store that are still running.
  public var runningEffectCount: Int { core.runningEffectCount }

  /// Cancels every effect of the root store and ignores actions sent afterwards. A root
  /// store does this by itself when it is deinitialized.
  public func tearDown() { core.tearDown() }
}

/// A store of a reducer's state and actions: `StoreOf<Counter>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
where R.State: Sendable, R.Action: Sendable
