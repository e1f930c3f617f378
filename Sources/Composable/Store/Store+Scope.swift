extension Store {
  /// A store of a child feature: its state is read through `state`, its actions are sent to
  /// this store through `action`.
  ///
  /// ```swift
  /// let counter = store.scope(state: \.counter, action: \.counter)
  /// ```
  ///
  /// Scoping again with the same paths gives the same store, while it lives.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState> & Sendable,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scopedStores.store(for: ScopedStores.ID(state: state, action: action)) {
      scope(state: state, action: AnyCasePath(action))
    }
  }

  /// The scope above with a hand-written case path.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState> & Sendable,
    action casePath: AnyCasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      core: ScopedCore(
        parent: core, toState: { $0[keyPath: state] }, fromAction: casePath.embed),
      parent: self)
  }

  /// A store of an optional child feature, or `nil` while its state is `nil`.
  ///
  /// After the child state becomes `nil`, the store keeps showing its last non-`nil` value.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState?> & Sendable,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: state, action: AnyCasePath(action))
  }

  /// The optional-state scope with a hand-written case path.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState?> & Sendable,
    action casePath: AnyCasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = core.snapshot.state[keyPath: state] else { return nil }
    return scope(initial: initial, state: { $0[keyPath: state] }, action: casePath.embed)
  }

  /// A store of child state that may go away: it shows `initial`, then each non-`nil` value
  /// `toChildState` gives, and keeps the last one once it gives `nil`.
  func scope<ChildState: Sendable, ChildAction: Sendable>(
    initial: ChildState,
    state toChildState: @escaping @Sendable (State) -> ChildState?,
    action fromChildAction: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let last = LastValue(initial)
    let tracking = observe { _ = last.update(toChildState($0.state)) }
    return Store<ChildState, ChildAction>(
      core: ScopedCore(
        parent: core, toState: { last.update(toChildState($0)) }, fromAction: fromChildAction),
      parent: (self, tracking))
  }
}

import Synchronization

/// The last non-`nil` value seen, for stores of optional state.
private final class LastValue<Value: Sendable>: Sendable {
  private let value: Mutex<Value>

  init(_ value: Value) { self.value = Mutex(value) }

  func update(_ newValue: Value?) -> Value {
    value.withLock { value in
      if let newValue { value = newValue }
      return value
    }
  }
}
