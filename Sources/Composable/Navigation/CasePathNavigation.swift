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
}
