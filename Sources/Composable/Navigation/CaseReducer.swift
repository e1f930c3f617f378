/// An enum of features, one per case, as `@Reducer enum Destination` writes it: its `State`
/// and `Action` have a case per feature, and its static `body` runs the feature of the case
/// the state is in. `ifLet` and `forEach` on navigation state take it without a trailing
/// closure: `.ifLet(\.$destination, action: \.destination)`. It is a ``Reducer`` whose
/// instance `body` is the static one, so `StackActionOf<Path>` and `Path.body` read as in TCA.
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, State.StateReducer == Self, Body == Reduce<State, Action> {
  /// The type of the static `body`: `@Reducer` writes one, or the enum writes its own.
  associatedtype CaseBody: Reducer<State, Action>

  /// Runs the feature of the case the state is in.
  static var body: CaseBody { get }
}

extension CaseReducer {
  public var body: Reduce<State, Action> { Reduce(Self.body) }
}

/// The state of a ``CaseReducer``, which names its reducer.
public protocol CaseReducerState {
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// `ifLet(_:action:destination:fileID:line:)` for an enum of destinations (`@Reducer enum`).
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, DestinationState.StateReducer.CaseBody>
  where DestinationState.StateReducer.Action == DestinationAction, Action: Sendable {
    ifLet(toPresentationState, action: toPresentationAction, destination: { DestinationState.StateReducer.body },
      fileID: fileID, line: line)
  }

  /// `forEach(_:action:destination:)` for an enum of pushed features (`@Reducer enum`).
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, DestinationState.StateReducer.CaseBody>
  where DestinationState.StateReducer.Action == DestinationAction, Action: Sendable {
    forEach(toStackState, action: toStackAction, destination: { DestinationState.StateReducer.body },
      fileID: fileID, line: line)
  }
}
