extension Reducer {
  /// Runs this reducer, and the effects it returns, with the dependency at `keyPath` set to `value`.
  ///
  /// ```swift
  /// Feature()
  ///   .dependency(\.uuid, .incrementing)
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: Reduce(self)) { $0[keyPath: keyPath] = value }
  }

  /// This reducer with the dependency at `keyPath` changed by `transform`, for it and its
  /// effects: `.transformDependency(\.apiClient) { $0.fetch = { 42 } }`.
  public func transformDependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: Reduce(self)) { transform(&$0[keyPath: keyPath]) }
  }
}

extension _DependencyKeyWritingReducer {
  /// Another value for this reducer's dependencies, in the same reducer: the values set
  /// nearer the base reducer win, as they would nested.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> Self {
    Self(base: base) { [update] values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Another change of this reducer's dependencies, in the same reducer, applied before
  /// the changes nearer the base reducer.
  public func transformDependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> Self {
    Self(base: base) { [update] values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}

/// The reducer built by ``Reducer/dependency(_:_:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Reduce<Base.State, Base.Action>
  let update: @Sendable (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    DependencyValues.prepare(&values, with: update)
    // The effects the base returns keep these values: `Effect.run` takes them when made.
    return DependencyValues.$current.withValue(values) {
      base.reduce(into: &state, action: action)
    }
  }
}
