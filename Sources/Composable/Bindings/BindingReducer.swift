/// Applies the ``BindingAction``s of a feature's ``BindableAction`` to its state.
///
/// Put it first in `body`, so later reducers see the new value:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in ... }
/// }
/// ```
///
/// When the bindings are a view's actions (``ViewAction``), name their case:
/// `BindingReducer(action: \.view)`.
public struct BindingReducer<State, Action, BindableActions: BindableAction>: Reducer
where BindableActions.State == State {
  private let toBindableAction: (Action) -> BindableActions?

  /// Applies the bindings of the feature's own actions.
  public init() where Action == BindableActions {
    self.toBindableAction = { $0 }
  }

  /// Applies the bindings of the actions in the case `toViewAction`: `\.view`.
  public init(action toViewAction: CaseKeyPath<Action, BindableActions>) {
    let path = AnyCasePath(toViewAction)
    self.toBindableAction = { path.extract(from: $0) }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    toBindableAction(action)?.binding?.set(&state)
    return .none
  }
}
