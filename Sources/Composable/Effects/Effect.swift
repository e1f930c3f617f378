/// Work a reducer asks its store to do after changing state: send more actions, run async
/// code that feeds actions back, cancel earlier work.
///
/// ```swift
/// case .factButtonTapped:
///   return .run { [count = state.count] send in
///     let fact = try await numberFact.fetch(count)
///     await send(.factResponse(fact))
///   }
/// ```
///
/// Effects are values; the store that receives one interprets it. Async work runs in tasks
/// that belong to the store: cancelling an id, or tearing the store down, cancels them.
public struct Effect<Action> {
  indirect enum Operation {
    case none
    case send(Action)
    case run(TaskPriority?, @Sendable (Send<Action>) async -> Void)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: EffectID, cancelInFlight: Bool, Effect)
    case cancel(id: EffectID)
    case throttle(ThrottleWindow, Effect)
  }

  let operation: Operation

  init(_ operation: Operation) { self.operation = operation }
}

extension Effect: Sendable where Action: Sendable {}
extension Effect.Operation: Sendable where Action: Sendable {}

/// The effect of a reducer's actions: `EffectOf<Feature>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

/// A hashable, sendable cancellation id, compared by value, with the presentations whose
/// effects it belongs to (``Effect/cancellationIDs(in:)``).
struct EffectID: Hashable, @unchecked Sendable {
  let base: AnyHashable
  /// The presentations, outermost first, of the feature that used the id; empty for the
  /// root feature's ids.
  private(set) var namespaces: [AnyHashable] = []

  init(_ id: some Hashable & Sendable) { self.base = AnyHashable(id) }

  /// `id` as used by a feature presented in `namespaces`, outermost first.
  init(_ id: some Hashable & Sendable, namespaces: [AnyHashable]) {
    self.base = AnyHashable(id)
    self.namespaces = namespaces
  }

  /// This id in `namespace`, around the namespaces it is already in.
  func `in`(_ namespace: some Hashable & Sendable) -> EffectID {
    var id = self
    id.namespaces.insert(AnyHashable(namespace), at: 0)
    return id
  }

  /// The ids that reach work marked with this one: the same id from its own feature and
  /// from each feature presenting it, up to the root. So a parent's `.cancel(id:)` reaches
  /// its presented features' work, and not the other way round.
  var withEnclosingNamespaces: [EffectID] {
    (0...namespaces.count).map { depth in
      var id = self
      id.namespaces.removeLast(namespaces.count - depth)
      return id
    }
  }
}

extension Effect {
  /// No work.
  public static var none: Self { Self(.none) }

  /// Sends `action` back into the store right after the current action, before any other.
  ///
  /// Prefer calling shared logic directly; use this to trigger a parent's delegate action.
  public static func send(_ action: Action) -> Self { Self(.send(action)) }

  /// Runs `operation` in a task owned by the store; it feeds actions back through `send`.
  ///
  /// An error thrown by `operation` goes to `handler`; without one, any error other than
  /// cancellation is reported as an issue.
  ///
  /// `operation` runs with the dependencies of where the effect is made: the store's, with
  /// what a reducer's `.dependency(...)` or a `withDependencies { ... } operation: { .run
  /// { ... } }` around it changed.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    let dependencies = DependencyValues.current
    return Self(
      .run(priority) { send in
        do {
          try await DependencyValues.$current.withValue(dependencies) { try await operation(send) }
        } catch is CancellationError {
        } catch {
          guard let handler else {
            reportIssue(
              """
              An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

              \(customDump(error).indented(by: 4))

              All non-cancellation errors must be explicitly handled via the "catch" parameter \
              on "Effect.run", or via a "do" block.
              """,
              fileID: fileID, line: line)
            return
          }
          await handler(error, send)
        }
      })
  }

  /// Runs several effects at the same time.
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs several effects at the same time.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// This effect and `other`, at the same time.
  public func merge(with other: Self) -> Self {
    switch (operation, other.operation) {
    case (.none, _): other
    case (_, .none): self
    case let (.merge(lhs), .merge(rhs)): Self(.merge(lhs + rhs))
    case let (.merge(lhs), _): Self(.merge(lhs + [other]))
    case let (_, .merge(rhs)): Self(.merge([self] + rhs))
    default: Self(.merge([self, other]))
    }
  }

  /// Runs several effects one after the other; each starts when the previous one finished.
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// Runs several effects one after the other; each starts when the previous one finished.
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    let effects = effects.filter { if case .none = $0.operation { false } else { true } }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(.concatenate(effects))
    }
  }

  /// This effect, then `other`.
  public func concatenate(with other: Self) -> Self { .concatenate([self, other]) }

  /// Turns the actions of this effect into another action type.
  ///
  /// `transform` sees the dependencies of the code calling `map`, like the effect's work.
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    switch operation {
    case .none: return .none
    case let .send(action): return .send(transform(action))
    default:
      // The work sends later, from its task: its actions are transformed with the
      // dependencies of now.
      let dependencies = DependencyValues.current
      return map({ action in DependencyValues.$current.withValue(dependencies) { transform(action) } }) {
        run, _ in await run()
      }
    }
  }

  /// ``map(_:)``, with each async operation started through `start`, which gets the
  /// operation (already sending through `transform`) and the send it ends in: how
  /// navigation reducers run their features' work with a way to dismiss them.
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    startingEach start: @escaping @Sendable (_ run: () async -> Void, _ send: Send<NewAction>) async -> Void
  ) -> Effect<NewAction> {
    switch operation {
    case .none: .none
    case let .send(action): .send(transform(action))
    case let .run(priority, operation):
      Effect<NewAction>(.run(priority) { send in await start({ await operation(send.map(transform)) }, send) })
    case let .merge(effects): Effect<NewAction>(.merge(effects.map { $0.map(transform, startingEach: start) }))
    case let .concatenate(effects):
      Effect<NewAction>(.concatenate(effects.map { $0.map(transform, startingEach: start) }))
    case let .cancellable(id, cancelInFlight, effect):
      Effect<NewAction>(
        .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform, startingEach: start)))
    case let .cancel(id): Effect<NewAction>(.cancel(id: id))
    case let .throttle(window, effect):
      Effect<NewAction>(.throttle(window, effect.map(transform, startingEach: start)))
    }
  }
}
