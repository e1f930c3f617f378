extension Store {
  /// Stores of the elements of a collection feature, one per element, in the order the state
  /// has them now: `ForEach(store.scope(state: \.rows, action: \.rows))`.
  ///
  /// An element's store sends `.element(id:action:)` to this store, and keeps showing the
  /// element's last state after it is removed. Scoping again gives the same element stores
  /// while they live.
  public func scope<ElementID: Hashable & Sendable, ElementState: Sendable, ElementAction: Sendable>(
    state: KeyPath<State, IdentifiedArray<ElementID, ElementState>> & Sendable,
    action: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> some RandomAccessCollection<Store<ElementState, ElementAction>> {
    let elements = core.snapshot.state[keyPath: state]
    let embed = AnyCasePath(action).embed
    return elements.ids.lazy.map { id in
      self.scopedStores.store(
        for: ScopedStores.ID(
          state: state.appending(path: \IdentifiedArray<ElementID, ElementState>.[id: id]), action: action)
      ) {
        self.scope(
          initial: elements[id: id]!, state: { $0[keyPath: state][id: id] },
          action: { embed(.element(id: id, action: $0)) })
      }
    }
  }
}
