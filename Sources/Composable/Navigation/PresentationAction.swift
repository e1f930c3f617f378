/// What a parent receives from a presented feature: `.presented(action)` for each of its
/// actions, or `.dismiss` to take it away (sent by the page, or by `await dismiss()` in the
/// feature's effects). On the wire: `{"destination": "dismiss"}` and
/// `{"destination": {"presented": {...}}}`.
public enum PresentationAction<Action> {
  /// Dismisses the presented feature: its state becomes `nil` and its effects are cancelled.
  case dismiss
  /// An action of the presented feature (boxed, so a feature can present itself).
  indirect case presented(Action)
}

/// The presentation action of a reducer's actions: `PresentationActionOf<Destination>`.
public typealias PresentationActionOf<R: Reducer> = PresentationAction<R.Action>

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension PresentationAction: CasePathable {
  /// `\.dismiss` and `\.presented`, as in `\.destination.presented.addContact`.
  public struct AllCasePaths: Sendable {
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(embed: { .dismiss }, extract: { if case .dismiss = $0 { () } else { nil } })
    }

    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(embed: { .presented($0) }, extract: { if case let .presented(action) = $0 { action } else { nil } })
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .dismiss:
      var container = encoder.singleValueContainer()
      try container.encode("dismiss")
    case let .presented(action):
      var container = encoder.container(keyedBy: ActionCodingKey.self)
      try container.encode(action, forKey: ActionCodingKey("presented"))
    }
  }
}

extension PresentationAction: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try ActionDecodingContainer(from: decoder, for: Self.self, cases: ["dismiss", "presented"])
    switch container.tag {
    case "dismiss":
      try container.decodeNoPayload()
      self = .dismiss
    default:
      self = .presented(try container.decodePayload(Action.self))
    }
  }
}

extension Reducer {
  /// Runs `destination` on the presented feature's state while it is presented, before
  /// this reducer: `.ifLet(\.$destination, action: \.destination) { Destination() }`.
  ///
  /// `.dismiss` (from the page, or `await dismiss()` in the feature's effects) sets the
  /// state to `nil` after this reducer saw it, and so does any action of a presented
  /// `AlertState` or `ConfirmationDialogState`. The presented feature's effects are
  /// cancelled whenever its presentation ends: dismissed, set to `nil`, or replaced by
  /// another case of an enum of destinations. Its cancellation ids are its own: its
  /// `.cancel(id:)` cancels none of its parent's or siblings' effects.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action, Action: Sendable {
    _PresentationReducer(
      parent: Reduce(self), destination: Reduce(child: destination()), toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction), fileID: fileID, line: line)
  }

  /// ``ifLet(_:action:destination:fileID:line:)`` with a case path: `action: /Action.destination`.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action, Action: Sendable {
    _PresentationReducer(
      parent: Reduce(self), destination: Reduce(child: destination()), toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction, fileID: fileID, line: line)
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:destination:fileID:line:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer where Parent.Action: Sendable {
  let parent: Reduce<Parent.State, Parent.Action>
  let destination: Reduce<Destination.State, Destination.Action>
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>> & Sendable
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // A presentation that another reducer ended (before this one ran, or after it on an
    // earlier action) has its effects cancelled now.
    let orphaned: Effect<Parent.Action> =
      state[keyPath: toPresentationState].endedPresentationID.map { .cancel(id: effectsID($0)) } ?? .none
    let before = Presentation(state[keyPath: toPresentationState])
    var destinationEffects = Effect<Parent.Action>.none
    let presentationAction = toPresentationAction.extract(from: action)
    if case let .presented(destinationAction) = presentationAction {
      if state[keyPath: toPresentationState].wrappedValue != nil {
        let embed = toPresentationAction.embed
        destinationEffects = destination.reduce(
          into: &state[keyPath: toPresentationState].wrappedValue!, action: destinationAction
        )
        .cancellationIDs(in: effectsID(before.id))
        .presented(as: { embed(.presented($0)) }, dismissal: embed(.dismiss))
        .cancellable(id: effectsID(before.id))
      } else {
        reportIssue(
          """
          An "ifLet" at "\(fileID):\(line)" received a presentation action when destination \
          state was absent.

            Action:
              \(destinationAction)

          Make sure the presented feature's effects end, or are cancelled, when it is dismissed.
          """, fileID: fileID, line: line)
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    var after = Presentation(state[keyPath: toPresentationState])
    // What the parent presented instead, while handling the action, stays presented.
    let isStillPresented = after.id != nil && after == before
    let isAnswered: Bool =
      switch presentationAction {
      case .dismiss: isStillPresented
      case let .presented(destinationAction):
        isStillPresented && isAnswer(destinationAction, to: state[keyPath: toPresentationState].wrappedValue!)
      case nil: false
      }
    if isAnswered {
      state[keyPath: toPresentationState].wrappedValue = nil
      after = Presentation(state[keyPath: toPresentationState])
    }
    let ended: Effect<Parent.Action> =
      before.id != nil && before != after ? .cancel(id: effectsID(before.id)) : .none
    if state[keyPath: toPresentationState].endedPresentationID != nil {
      state[keyPath: toPresentationState].forgetEndedPresentation()
    }
    return .merge([orphaned, destinationEffects, parentEffects, ended])
  }

  /// Whether `action` answers a presented alert or dialog: any action of the alert's own,
  /// and not one of another case of an enum of destinations.
  private func isAnswer(_ action: Destination.Action, to presented: Destination.State) -> Bool {
    guard isEphemeral(presented) else { return false }
    let presentedCase = enumCaseName(of: presented)
    return presentedCase == nil || presentedCase == enumCaseName(of: action)
  }

  private func effectsID(_ presentation: Int?) -> ChildEffectsID {
    ChildEffectsID(stateKeyPath: toPresentationState, elementID: presentation)
  }

  /// What tells one presentation from the next: its identity and, for an enum of
  /// destinations, which case it shows.
  private struct Presentation: Equatable {
    let id: Int?
    let caseName: String?

    init(_ state: PresentationState<Destination.State>) {
      guard let value = state.wrappedValue else {
        (id, caseName) = (nil, nil)
        return
      }
      id = state.presentationID
      caseName = enumCaseName(of: value)
    }
  }
}

extension Case {
  /// A case of the presented feature's actions, through `.presented`:
  /// `\.destination.addContact.saveButtonTapped` for `\.destination.presented.addContact.saveButtonTapped`.
  public subscript<Presented: CasePathable, Member>(
    dynamicMember keyPath: KeyPath<Presented.AllCasePaths, AnyCasePath<Presented, Member>>
  ) -> Case<Member> where Value == PresentationAction<Presented> {
    appending(PresentationAction<Presented>.allCasePaths.presented).appending(Presented.allCasePaths[keyPath: keyPath])
  }
}
