extension Store {
  /// Calls `unwrap` with a store of the wrapped state each time this store's state becomes
  /// non-`nil`, and `else` each time it becomes `nil` (one of them at once, for the state as
  /// it is), until the returned observation is cancelled or released. TCA's older way to
  /// follow optional state.
  ///
  /// Both run outside the store's serial section, so they may send actions.
  @available(
    *, deprecated,
    message: "Scope with an optional key path: 'if let child = store.scope(state: \\.child, action: \\.child)'"
  )
  public func ifLet<Wrapped: Sendable>(
    then unwrap: @escaping (_ store: Store<Wrapped, Action>) -> Void,
    else: @escaping () -> Void = {}
  ) -> StoreObservation where State == Wrapped? {
    let calls = UncheckedSendable((unwrap: unwrap, orElse: `else`))
    let deliver: @Sendable (Store, Wrapped?) -> Void = { store, state in
      if let state {
        calls.value.unwrap(store.scope(initial: state, state: { $0 }, action: { $0 }))
      } else {
        calls.value.orElse()
      }
    }
    let wasPresent = LockIsolated<Bool?>(nil)
    let observation = observe { [weak self] snapshot in
      let isPresent = snapshot.state != nil
      let previous = wasPresent.withValue { wasPresent in
        defer { wasPresent = isPresent }
        return wasPresent
      }
      // The first call, made while `observe` registers, is delivered below, outside the lock.
      guard let previous, previous != isPresent else { return }
      SharedDelivery.afterUnlock {
        guard let self else { return }
        deliver(self, snapshot.state)
      }
    }
    deliver(self, core.snapshot.state)
    return observation
  }
}
