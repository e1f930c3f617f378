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
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:line:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Reduce<Parent.State, Parent.Action>
  let child: Reduce<Child.State, Child.Action>
  let toCaseState: CaseKeyPath<Parent.State, Child.State>
  let toCaseAction: AnyCasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  init(
    parent: Reduce<Parent.State, Parent.Action>, child: Reduce<Child.State, Child.Action>,
    toCaseState: CaseKeyPath<Parent.State, Child.State>,
    toCaseAction: AnyCasePath<Parent.Action, Child.Action>, fileID: StaticString, line: UInt
  ) {
    (self.parent, self.child, self.toCaseState) = (parent, child, toCaseState)
    (self.toCaseAction, self.fileID, self.line) = (toCaseAction, fileID, line)
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let casePath = AnyCasePath(toCaseState)
    let childEffectsID = ChildEffectsID(stateKeyPath: toCaseState, elementID: nil)
    var childEffects = Effect<Parent.Action>.none
    if let childAction = toCaseAction.extract(from: action) {
      if var childState = casePath.extract(from: state) {
        childEffects = child.reduce(into: &childState, action: childAction)
          .map(toCaseAction.embed)
          .cancellable(id: childEffectsID)
        state = casePath.embed(childState)
      } else {
        reportIssue(
          """
          An "ifCaseLet" at "\(fileID):\(line)" received a child action while the state was in \
          another case: \(childAction)

          Make sure the child's effects end, or are cancelled, when the state leaves its case.
          """, fileID: fileID, line: line)
      }
    }
    let wasInCase = casePath.extract(from: state) != nil
    let parentEffects = parent.reduce(into: &state, action: action)
    let leftCase = wasInCase && casePath.extract(from: state) == nil
    return .merge(childEffects, parentEffects, leftCase ? .cancel(id: childEffectsID) : .none)
  }
}
