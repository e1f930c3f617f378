/// Runs a child reducer on part of the parent's state, for the parent actions that carry a
/// child action.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.counter, action: \.counter) {
///     Counter()
///   }
/// }
/// ```
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  let toChildState: ChildStatePath<ParentState, Child.State>
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Reduce<Child.State, Child.Action>

  /// Scopes `child` to the state at `state` and the actions in the case `action`.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// Scopes `child` with a hand-written case path, for action enums without `CasePathable`.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = Reduce(child())
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    switch toChildState {
    case let .keyPath(keyPath):
      return child.reduce(into: &state[keyPath: keyPath], action: childAction)
        .map(toChildAction.embed)
    case let .casePath(casePath, fileID, line):
      guard var childState = casePath.extract(from: state) else {
        reportChildActionInAnotherCase(#"A "Scope""#, childAction, fileID: fileID, line: line)
        return .none
      }
      defer { state = casePath.embed(childState) }
      return child.reduce(into: &childState, action: childAction)
        .map(toChildAction.embed)
    }
  }
}

extension Scope {
  /// Scopes `child` to one case of an enum state, with case paths:
  /// `Scope(state: /State.loggedIn, action: /Action.loggedIn) { Home() }`. A child action
  /// received while the state is in another case is reported as an issue.
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(toChildState, fileID: fileID, line: line)
    self.toChildAction = toChildAction
    self.child = Reduce(child())
  }

  /// Scopes `child` to one case of an enum state: `Scope(state: \.loggedIn, action: \.loggedIn) { Home() }`.
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: AnyCasePath(toChildState), action: AnyCasePath(toChildAction), child: child, fileID: fileID, line: line)
  }
}

/// Where a ``Scope`` finds its child's state: a property, or a case of an enum state.
enum ChildStatePath<Root, Value> {
  case keyPath(WritableKeyPath<Root, Value>)
  case casePath(AnyCasePath<Root, Value>, fileID: StaticString, line: UInt)
}

/// Reports a child action that reached `reducer` (`A "Scope"`, `An "ifCaseLet"`, declared at
/// `fileID:line`) while the parent's state was in another case than the child's.
func reportChildActionInAnotherCase(
  _ reducer: String, _ action: Any, fileID: StaticString, filePath: StaticString = #filePath, line: UInt
) {
  reportIssue(
    """
    \(reducer) at "\(fileID):\(line)" received a child action when child state was set to a \
    different case.

      Action:
        \(action)

    Make sure the child's effects end, or are cancelled, when the state leaves its case.
    """, fileID: fileID, filePath: filePath, line: line)
}
