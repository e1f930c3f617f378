extension Reducer {
  /// This reducer with every effect it returns dropped: it changes the state, and runs,
  /// sends or cancels nothing.
  ///
  /// For replaying actions recorded from a running store, where what the effects sent back
  /// is among the recorded actions and is sent in its turn: a test exported from a session's
  /// history runs its feature this way, so it needs no network and no clock. The
  /// dependencies the reducer reads for its effects are never used, so reading one without
  /// a test value reports nothing (it falls back to its live value, as always); a dependency
  /// the reducer itself uses to change the state still has to be set by the test.
  ///
  /// ```swift
  /// let store = TestStore(initialState: recordedState) {
  ///   AppFeature().droppingEffects()
  /// }
  /// ```
  public func droppingEffects() -> DroppingEffectsReducer<Self> {
    DroppingEffectsReducer(base: self)
  }
}

/// The reducer built by ``Reducer/droppingEffects()``.
public struct DroppingEffectsReducer<Base: Reducer>: Reducer {
  let base: Base

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _ = DependencyValues.$isSetting.withValue(true) { base.reduce(into: &state, action: action) }
    return .none
  }
}
