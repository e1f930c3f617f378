extension Reducer {
  /// Runs a reducer built by `reducer` whenever the value at `toValue` changes.
  ///
  /// ```swift
  /// .onChange(of: \.query) { oldValue, newValue in
  ///   Reduce { state, action in .send(.search(newValue)) }
  /// }
  /// ```
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    onChange(of: toValue, removeDuplicates: ==, reducer)
  }

  /// Runs a reducer built by `reducer` whenever the value at `toValue` changes, as
  /// `isDuplicate` tells: for values that are not `Equatable` (a tuple), or to react to some
  /// changes only.
  ///
  /// ```swift
  /// .onChange(of: \.rows, removeDuplicates: { $0.ids == $1.ids }) { _, rows in
  ///   Reduce { state, action in .send(.save(rows)) }
  /// }
  /// ```
  public func onChange<Value, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: Reduce(self), toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value, Changed: Reducer<Base.State, Base.Action>>: Reducer {
  let base: Reduce<Base.State, Base.Action>
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> Changed

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard !isDuplicate(oldValue, newValue) else { return baseEffects }
    return baseEffects.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
