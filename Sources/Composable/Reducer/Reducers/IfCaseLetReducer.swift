extension Reducer {
  /// Runs `child` on the state of one case of an enum state, for the actions of that case,
  /// before this reducer; the child's effects are cancelled when this reducer moves the
  /// state to another case.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .ifCaseLet(\.login, action: \.login) { Login() }
  /// ```
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfCaseLetReducer<Self, Child> where CaseState == Child.State, CaseAction == Child.Action {
    _IfCaseLetReducer(
      parent: Reduce(self), child: Reduce(child: child()), toCaseState: toCaseState,
      toCaseAction: AnyCasePath(toCaseAction), fileID: fileID, line: line)
  }

  /// ``ifCaseLet(_:action:then:fileID:line:)`` with case paths:
  /// `.ifCaseLet(/State.login, action: /Action.login) { Login() }`.
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfCaseLetReducer<Self, Child> where CaseState == Child.State, CaseAction == Child.Action {
    _IfCaseLetReducer(
      parent: Reduce(self), child: Reduce(child: child()), toCaseState: toCaseState,
      toCaseAction: toCaseAction, fileID: fileID, line: line)
  }
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:line:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Reduce<Parent.State, Parent.Action>
  let child: Reduce<Child.State, Child.Action>
  let casePath: AnyCasePath<Parent.State, Child.State>
  /// The id of the child's effects, from the state while it is in the case.
  let childEffectsID: @Sendable (Parent.State) -> ChildEffectsID
  let toCaseAction: AnyCasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  init(
    parent: Reduce<Parent.State, Parent.Action>, child: Reduce<Child.State, Child.Action>,
    toCaseState: CaseKeyPath<Parent.State, Child.State>,
    toCaseAction: AnyCasePath<Parent.Action, Child.Action>, fileID: StaticString, line: UInt
  ) {
    (self.parent, self.child, self.casePath) = (parent, child, AnyCasePath(toCaseState))
    let id = ChildEffectsID(stateKeyPath: toCaseState, elementID: nil)
    self.childEffectsID = { _ in id }
    (self.toCaseAction, self.fileID, self.line) = (toCaseAction, fileID, line)
  }

  init(
    parent: Reduce<Parent.State, Parent.Action>, child: Reduce<Child.State, Child.Action>,
    toCaseState: AnyCasePath<Parent.State, Child.State>,
    toCaseAction: AnyCasePath<Parent.Action, Child.Action>, fileID: StaticString, line: UInt
  ) {
    (self.parent, self.child, self.casePath) = (parent, child, toCaseState)
    // A case path has no identity of its own, and a body may be rebuilt for every action:
    // the effects are known by the name of the case they belong to.
    self.childEffectsID = { state in
      ChildEffectsID(stateKeyPath: \Parent.State.self, elementID: EnumReflection.caseName(of: state))
    }
    (self.toCaseAction, self.fileID, self.line) = (toCaseAction, fileID, line)
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffects = Effect<Parent.Action>.none
    if let childAction = toCaseAction.extract(from: action) {
      if var childState = casePath.extract(from: state) {
        childEffects = child.reduce(into: &childState, action: childAction)
          .map(toCaseAction.embed)
          .cancellable(id: childEffectsID(state))
        state = casePath.embed(childState)
      } else {
        reportChildActionInAnotherCase(#"An "ifCaseLet""#, childAction, fileID: fileID, line: line)
      }
    }
    let idInCase = casePath.extract(from: state).map { _ in childEffectsID(state) }
    let parentEffects = parent.reduce(into: &state, action: action)
    let leftCase: Effect<Parent.Action> =
      if let idInCase, casePath.extract(from: state) == nil { .cancel(id: idInCase) } else { .none }
    return .merge(childEffects, parentEffects, leftCase)
  }
}
