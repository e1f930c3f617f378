
/// Runs a feature in a test and makes the test assert everything it does: each state
/// change, each action its effects send back, and that every effect ends.
///
/// ```swift
/// @Test func increment() async {
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   }
///   await store.send(.incrementButtonTapped) {
///     $0.count = 1
///   }
/// }
/// ```
///
/// A mismatch fails the running test (Swift Testing or XCTest) at the line of the step,
/// with TCA's message and a ``diff(_:_:format:)`` of the expected (`−`) and actual (`+`)
/// state. Actions from effects must be
/// asserted with `receive`, in order, before the next `send`; effects still running when
/// the store is released fail the test. Set ``exhaustivity`` to `.off` to assert only
/// part of the behavior.
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// Whether everything must be asserted (`.on`, the default) or only what the test
  /// chooses (`.off`).
  public var exhaustivity: Exhaustivity = .on

  /// The dependencies the feature runs with, in the test context. Changes apply to the
  /// actions sent, and the effects started, afterwards.
  public var dependencies: DependencyValues {
    get { log.dependencies }
    set { log.dependencies = newValue }
  }

  /// The feature's state as of the last step the test went through: the last action sent
  /// or received, not the actions received since but not yet asserted.
  public var state: State { lastState }

  /// How long `receive(_:timeout:assert:)` and
  /// ``finish(timeout:isolation:fileID:file:line:column:)`` wait when not given a timeout.
  public var timeout: Duration = .seconds(1)

  let store: Store<State, TestAction<Action>>
  let log: TestStoreLog<State, Action>
  let dismissal: TestDismissal
  /// The state after the last step the test went through, for ``assert(_:fileID:file:line:column:)``.
  var lastState: State
  /// The values of the shared state as the test last asserted (or skipped) them: states
  /// only hold references, so expectations start from these.
  var sharedValues: SharedValues
  /// The last step's location: where effects whose action is not known are reported.
  var lastLocation: TestLocation
  /// Where the store was made: where actions left unasserted at its end are reported.
  let initLocation: TestLocation
  /// The actions sent with effects, to name the one whose effects outlive the test.
  var sentEffects: [SentEffects] = []
  /// Whether running effects were already reported, so they are not reported twice.
  var reportedRunningEffects = false

  /// A test store running `reducer` from `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The feature's first state.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Sets the dependencies the feature uses, on top of those of
  ///     the current task, in the test context: a dependency used without a test value
  ///     fails the test.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var dependencies = DependencyValues.current
    dependencies.context = .test
    let dismissal = TestDismissal()
    dependencies[UnpresentedDismissalKey.self] = dismissal.record
    DependencyValues.prepare(&dependencies, with: prepareDependencies)
    let log = TestStoreLog<State, Action>(dependencies: dependencies)
    let testReducer = TestReducer(base: reducer(), log: log)
    self.log = log
    self.dismissal = dismissal
    self.store = IssueReporters.$current.withValue([TestStoreIssueReporter(location: location)]) {
      // The state is made with the test's dependencies, so its shared values use the test's storage.
      Store(
        initialState: DependencyValues.$current.withValue(dependencies) { initialState() },
        reducer: { testReducer }, withDependencies: { $0 = dependencies })
    }
    dismissal.cancelsEffects { [weak store] in _ = store?.send(.cancelEffects) }
    self.lastState = store.withState { $0 }
    self.sharedValues = SharedValues(capturing: lastState)
    self.lastLocation = location
    self.initLocation = location
  }

  deinit {
    reportLeftovers()
    store.tearDown()
  }
}

extension TestStore {
  /// Moves past `step` without asserting it.
  func skip(_ step: TestStoreLog<State, Action>.Step) {
    lastState = step.after
    sharedValues = sharedValues.merging(step.sharedAfter)
  }
}

/// An action the test sent, with where, and whether the effects it started have ended.
struct SentEffects {
  /// The action, as ``customDump(_:)`` reads it.
  let action: DumpNode
  let location: TestLocation
  let completion: EffectCompletion
}

/// The test store of a reducer's domain: `TestStoreOf<Feature>` for
/// `TestStore<Feature.State, Feature.Action>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action>
where R.State: Equatable & Sendable, R.Action: Sendable
