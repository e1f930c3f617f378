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
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.set(&state)
    return .none
  }
}
