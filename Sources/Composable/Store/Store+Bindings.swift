extension Store where Action: BindableAction, Action.State == State {
  /// A field of the state that a view binds to: reading it is `store.name`, and setting it,
  /// `store.name = "Blob"`, sends `.binding(.set(\.name, "Blob"))`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value> & Sendable
  ) -> Value {
    get { self[dynamicMember: keyPath as KeyPath<State, Value>] }
    set { send(.binding(.set(keyPath, newValue))) }
  }
}
