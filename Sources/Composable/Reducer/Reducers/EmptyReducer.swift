/// A reducer that changes nothing and runs no effect.
public struct EmptyReducer<State, Action>: Reducer {
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}
