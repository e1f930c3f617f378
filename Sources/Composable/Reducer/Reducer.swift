/// Describes how a feature's state changes for each action, and which effects run then.
///
/// Implement either `reduce(into:action:)` or a `body` built from other reducers:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// Reducers run inside their store's serial section: they must be fast and must not block.
public protocol Reducer<State, Action> {
  /// The feature's state.
  associatedtype State
  /// Everything that can happen in the feature.
  associatedtype Action
  /// The type of `body`; `Never` for reducers that implement `reduce(into:action:)`.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// This reducer as one function, with its `body` built once. Stores and operators call it
  /// when they are created, so no body is rebuilt for every action.
  func _reduceFunction() -> (inout State, Action) -> Effect<Action>
}

extension Reducer {
  public func _reduceFunction() -> (inout State, Action) -> Effect<Action> {
    reduce(into:action:)
  }
}

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  public var body: Body {
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:).")
  }
}

extension Reducer where Body: Reducer<State, Action> {
  /// Runs `body`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }

  public func _reduceFunction() -> (inout State, Action) -> Effect<Action> {
    body._reduceFunction()
  }
}

/// A reducer of `R`'s state and actions: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
