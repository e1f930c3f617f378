/// What a parent receives from its stack of pushed features. On the wire:
/// `{"path": {"element": {"id": 0, "action": ...}}}`, `{"path": {"popFrom": {"id": 0}}}` and
/// `{"path": {"push": {"id": 1, "state": {...}}}}`.
public enum StackAction<State, Action> {
  /// An action of the feature pushed with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the feature pushed with `id` and every one above it (sent by the page, or by
  /// `await dismiss()` in the feature's effects).
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must be new and above every id on the stack.
  case push(id: StackElementID, state: State)
}

/// The stack action of a reducer: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension StackAction: CasePathable {
  /// `\.element`, `\.popFrom` and `\.push`.
  public struct AllCasePaths: Sendable {
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: { if case let .element(id, action) = $0 { (id, action) } else { nil } })
    }

    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(embed: { .popFrom(id: $0) }, extract: { if case let .popFrom(id) = $0 { id } else { nil } })
    }

    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: { if case let .push(id, state) = $0 { (id, state) } else { nil } })
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Case {
  /// The actions of the element pushed with `id`: `await store.receive(\.path[id: 0].delegate)`.
  public subscript<State, Action>(id id: StackElementID) -> Case<Action>
  where Value == StackAction<State, Action> {
    appending(
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: { if case let .element(elementID, action) = $0, elementID == id { action } else { nil } }))
  }
}

extension StackAction: Encodable where State: Encodable, Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    switch self {
    case let .element(id, action):
      var payload = container.nestedContainer(keyedBy: ActionCodingKey.self, forKey: ActionCodingKey("element"))
      try payload.encode(id, forKey: ActionCodingKey("id"))
      try payload.encode(action, forKey: ActionCodingKey("action"))
    case let .popFrom(id):
      var payload = container.nestedContainer(keyedBy: ActionCodingKey.self, forKey: ActionCodingKey("popFrom"))
      try payload.encode(id, forKey: ActionCodingKey("id"))
    case let .push(id, state):
      var payload = container.nestedContainer(keyedBy: ActionCodingKey.self, forKey: ActionCodingKey("push"))
      try payload.encode(id, forKey: ActionCodingKey("id"))
      try payload.encode(state, forKey: ActionCodingKey("state"))
    }
  }
}

extension StackAction: Decodable where State: Decodable, Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try ActionDecodingContainer(from: decoder, for: Self.self, cases: ["element", "popFrom", "push"])
    let payload = try container.decodeLabeledPayload()
    let id = try payload.decode(StackElementID.self, forKey: "id")
    switch container.tag {
    case "element": self = .element(id: id, action: try payload.decode(Action.self, forKey: "action"))
    case "popFrom": self = .popFrom(id: id)
    default: self = .push(id: id, state: try payload.decode(State.self, forKey: "state"))
    }
  }
}

extension Reducer {
  /// Runs `destination` on the features pushed on a stack, before this reducer:
  /// `.forEach(\.path, action: \.path) { Path() }`.
  ///
  /// `.popFrom(id:)` (from the page, or `await dismiss()` in a pushed feature's effects) and
  /// `.push(id:state:)` change the stack after this reducer saw them. The effects of a
  /// pushed feature are cancelled when it leaves the stack, however it leaves: with the
  /// action it leaves in when this reducer or one before it removes it, and with the next
  /// action when a reducer after this one does. The cancellation ids of each pushed
  /// feature are its own.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>> & Sendable,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action, Action: Sendable {
    forEach(toStackState, action: AnyCasePath(toStackAction), destination: destination, fileID: fileID, line: line)
  }
}

/// The reducer built by ``Reducer/forEach(_:action:destination:fileID:line:)`` on a stack.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer where Parent.Action: Sendable {
  let parent: Reduce<Parent.State, Parent.Action>
  let destination: Reduce<Destination.State, Destination.Action>
  let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>> & Sendable
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // Elements removed since this reducer last ran (by a reducer before it) count as gone
    // now, and so do those removed while it runs.
    let idsBefore = state[keyPath: toStackState].mountedIDs ?? state[keyPath: toStackState].ids
    var destinationEffects = Effect<Parent.Action>.none
    let stackAction = toStackAction.extract(from: action)
    if case let .element(id, destinationAction) = stackAction {
      if state[keyPath: toStackState][id: id] != nil {
        let embed = toStackAction.embed
        destinationEffects = destination.reduce(into: &state[keyPath: toStackState][id: id]!, action: destinationAction)
          .cancellationIDs(in: effectsID(id))
          .presented(as: { embed(.element(id: id, action: $0)) }, dismissal: embed(.popFrom(id: id)))
          .cancellable(id: effectsID(id))
      } else {
        report("received an action for an element that is not on the stack (\(id)): \(destinationAction)")
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    switch stackAction {
    case let .popFrom(id):
      if state[keyPath: toStackState].contains(id: id) {
        state[keyPath: toStackState].pop(from: id)
      } else {
        report("was asked to pop an element that is not on the stack (\(id))")
      }
    case let .push(id, element):
      if let top = state[keyPath: toStackState].ids.last, id <= top {
        report("was asked to push with id \(id.rawValue), which is not above the top of the stack (\(top.rawValue))")
      } else {
        state[keyPath: toStackState].append(element, id: id)
      }
    case .element, nil:
      break
    }
    let remaining = state[keyPath: toStackState].ids
    guard remaining != idsBefore else {
      // Written only when it changes, so a stack the action left alone keeps its bytes.
      if state[keyPath: toStackState].mountedIDs == nil { state[keyPath: toStackState].mountedIDs = remaining }
      return destinationEffects.merge(with: parentEffects)
    }
    state[keyPath: toStackState].mountedIDs = remaining
    let idsAfter = Set(remaining)
    let gone = idsBefore.filter { !idsAfter.contains($0) }
    return .merge([destinationEffects, parentEffects] + gone.map { .cancel(id: effectsID($0)) })
  }

  private func effectsID(_ id: StackElementID) -> ChildEffectsID {
    ChildEffectsID(stateKeyPath: toStackState, elementID: id)
  }

  private func report(_ problem: String) {
    reportIssue(#"A "forEach" at "\#(fileID):\#(line)" \#(problem)"#, fileID: fileID, line: line)
  }
}
