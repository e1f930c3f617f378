
/// The actions of a test store's inner store: those the test sends, those the feature's
/// effects send back, and a request to cancel every effect.
enum TestAction<Action: Sendable>: Sendable {
  case send(Action)
  case receive(Action)
  case cancelEffects
}

/// Runs the feature with the test store's current dependencies, logs each action with the
/// states around it, and tags every effect so the test store can cancel them all.
struct TestReducer<Base: Reducer>: Reducer where Base.State: Sendable, Base.Action: Sendable {
  let base: Base
  let log: TestStoreLog<Base.State, Base.Action>

  func reduce(
    into state: inout Base.State, action: TestAction<Base.Action>
  ) -> Effect<TestAction<Base.Action>> {
    switch action {
    case let .send(action):
      let step = reduceFeature(&state, action)
      log.recordSent(step.step)
      return step.effect
    case let .receive(action):
      let step = reduceFeature(&state, action)
      log.recordReceived(step.step)
      return step.effect
    case .cancelEffects:
      return .cancel(id: TestEffectsID())
    }
  }

  private func reduceFeature(
    _ state: inout Base.State, _ action: Base.Action
  ) -> (step: TestStoreLog<Base.State, Base.Action>.Step, effect: Effect<TestAction<Base.Action>>) {
    let before = state
    let effect = base.dependency(\.self, log.dependencies).reduce(into: &state, action: action)
    return (
      TestStoreLog.Step(
        action: action, before: before, after: state, sharedAfter: SharedValues(capturing: state)),
      effect.map { .receive($0) }.cancellable(id: TestEffectsID())
    )
  }
}

/// The cancellation id every effect of a test store runs under.
struct TestEffectsID: Hashable, Sendable {}
