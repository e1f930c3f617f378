extension Store {
  /// A store of a child feature, its state computed by `toChildState` and its actions
  /// embedded by `fromChildAction`: TCA's older form of `scope(state: \.child, action: \.child)`.
  ///
  /// `toChildState` runs each time the child store's state is read, and `fromChildAction`
  /// each time it is sent an action, on the thread doing so.
  @available(
    *, deprecated,
    message: "Scope with a key path and a case key path: 'scope(state: \\.child, action: \\.child)'"
  )
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: @escaping (_ state: State) -> ChildState,
    action fromChildAction: @escaping (_ childAction: ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let toChildState = UncheckedSendable(toChildState)
    let fromChildAction = UncheckedSendable(fromChildAction)
    return Store<ChildState, ChildAction>(
      core: ScopedCore(
        parent: core, toState: { toChildState.value($0) },
        fromAction: { fromChildAction.value($0) }),
      parent: self)
  }
}
