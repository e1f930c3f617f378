extension Reducer {
  /// ``ifLet(_:action:fileID:line:)`` for a presented alert or dialog, with a case path:
  /// `.ifLet(\.$alert, action: /Action.alert)`.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>>
  where DestinationState.Action == DestinationAction, Action: Sendable {
    ifLet(toPresentationState, action: toPresentationAction, destination: { EmptyReducer() }, fileID: fileID, line: line)
  }

  /// ``ifLet(_:action:fileID:line:)`` for an enum of destinations, with a case path:
  /// `.ifLet(\.$destination, action: /Action.destination)`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, DestinationState.StateReducer.CaseBody>
  where DestinationState.StateReducer.Action == DestinationAction, Action: Sendable {
    ifLet(toPresentationState, action: toPresentationAction, destination: { DestinationState.StateReducer.body },
      fileID: fileID, line: line)
  }

  /// ``forEach(_:action:destination:fileID:line:)`` on a stack, with a case path:
  /// `.forEach(\.path, action: /Action.path) { Path() }`.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action, Action: Sendable {
    _StackReducer(
      parent: Reduce(self), destination: Reduce(child: destination()), toStackState: toStackState,
      toStackAction: toStackAction, fileID: fileID, line: line)
  }

  /// ``ifLet(_:action:fileID:line:)`` for an alert or a dialog in plain optional state,
  /// with a case path: `.ifLet(\.alert, action: /Action.alert)`.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?> & Sendable,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(toWrappedState, action: toWrappedAction, then: { EmptyReducer() }, fileID: fileID, line: line)
  }
}
