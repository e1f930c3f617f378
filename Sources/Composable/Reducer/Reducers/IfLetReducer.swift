extension Reducer {
  /// Runs `child` on optional child state while it is non-`nil`, before this reducer, and
  /// cancels the child's effects when this reducer sets the child state to `nil`.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .ifLet(\.alert, action: \.alert) { Alert() }
  /// ```
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(toChildState, action: AnyCasePath(toChildAction), then: child, fileID: fileID, line: line)
  }

  /// ``ifLet(_:action:then:fileID:line:)`` with a hand-written case path.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: AnyCasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    _IfLetReducer(
      parent: Reduce(self), child: Reduce(child: child()), toChildState: toChildState,
      toChildAction: toChildAction, fileID: fileID, line: line)
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:line:)``. An alert or a dialog
/// (``_EphemeralState``) is set to `nil` by any of its actions.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Reduce<Parent.State, Parent.Action>
  let child: Reduce<Child.State, Child.Action>
  let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  /// Cancellation id of the child's effects: one per `ifLet` in the tree.
  private var childEffectsID: ChildEffectsID { ChildEffectsID(stateKeyPath: toChildState, elementID: nil) }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffects = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(from: action) {
      if state[keyPath: toChildState] != nil {
        childEffects = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
          .map(toChildAction.embed)
          .cancellable(id: childEffectsID)
      } else {
        reportIssue(
          """
          An "ifLet" at "\(fileID):\(line)" received a child action while the child state was nil: \
          \(childAction)

          Make sure the child's effects end, or are cancelled, when its state is set to nil.
          """, fileID: fileID, line: line)
      }
    }
    let wasPresent = state[keyPath: toChildState] != nil
    // An alert or a dialog is answered by any of its actions: gone before the parent sees
    // the action, which may present another.
    if wasPresent, toChildAction.extract(from: action) != nil, isEphemeral(state[keyPath: toChildState]!) {
      state[keyPath: toChildState] = nil
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    let dismissal: Effect<Parent.Action> =
      wasPresent && state[keyPath: toChildState] == nil ? .cancel(id: childEffectsID) : .none
    return .merge(childEffects, parentEffects, dismissal)
  }
}

/// Identifies the effects of a child feature inside `ifLet` and `forEach`.
struct ChildEffectsID: Hashable, @unchecked Sendable {
  let stateKeyPath: AnyKeyPath
  let elementID: AnyHashable?
}
