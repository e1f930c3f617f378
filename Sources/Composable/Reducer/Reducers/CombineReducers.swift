/// Groups reducers so that an operator such as `.ifLet` applies to all of them at once.
///
/// ```swift
/// CombineReducers {
///   Reduce { state, action in ... }
///   BindingReducer()
/// }
/// .ifLet(\.child, action: \.child) { Child() }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  let reducers: Reduce<State, Action>

  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = Reduce(build())
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
