/// Builds a reducer from a list of reducers that run one after the other on the same state
/// and action, merging their effects.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildExpression<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }

  /// A reducer of existential type, `Test() as any ReducerOf<Test>`, erased to a ``Reduce``.
  @_disfavoredOverload
  public static func buildExpression(_ reducer: any Reducer<State, Action>) -> Reduce<State, Action> {
    Reduce(reducer)
  }

  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _SequenceReducer<R0, R1> {
    _SequenceReducer(first: accumulated, second: next)
  }

  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? { wrapped }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first: R0
  ) -> _ConditionalReducer<R0, R1> {
    .first(first)
  }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second: R1
  ) -> _ConditionalReducer<R0, R1> {
    .second(second)
  }

  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ArrayReducer<R> {
    _ArrayReducer(reducers: reducers)
  }

  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ wrapped: R
  ) -> Reduce<State, Action> {
    Reduce(wrapped)
  }

  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }
}

/// Two reducers run in order; built by ``ReducerBuilder``.
public struct _SequenceReducer<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  let first: Reduce<R0.State, R0.Action>
  let second: Reduce<R0.State, R0.Action>

  init(first: R0, second: R1) {
    self.first = Reduce(first)
    self.second = Reduce(second)
  }

  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    first.reduce(into: &state, action: action)
      .merge(with: second.reduce(into: &state, action: action))
  }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a builder.
public enum _ConditionalReducer<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  case first(R0)
  case second(R1)

  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    switch self {
    case let .first(reducer): reducer.reduce(into: &state, action: action)
    case let .second(reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// Reducers produced by a `for` loop in a builder, run in order.
public struct _ArrayReducer<R: Reducer>: Reducer {
  let reducers: [R]

  public func reduce(into state: inout R.State, action: R.Action) -> Effect<R.Action> {
    reducers.reduce(.none) { $0.merge(with: $1.reduce(into: &state, action: action)) }
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  public func reduce(
    into state: inout Wrapped.State, action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    self?.reduce(into: &state, action: action) ?? .none
  }
}
