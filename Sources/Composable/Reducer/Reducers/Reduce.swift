import Synchronization

/// A reducer from a closure: the usual way to write a feature's logic inside `body`.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .incrementButtonTapped:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>

  /// A reducer that calls `reduce` for every action.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases another reducer's type, building its body once.
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = reducer._reduceFunction()
  }

  /// Erases a child reducer's type, building its body at the child's first action. A
  /// feature that holds itself (`.forEach(\.rows, action: \.rows) { Self() }`) is then built
  /// only as deep as its state goes.
  init<R: Reducer<State, Action>>(child: R) {
    let function = LazyReduceFunction(child)
    self.reduce = { function(&$0, $1) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer's function, built at its first call, once, whichever store's thread calls it.
/// Once built, a call costs one atomic load.
private final class LazyReduceFunction<State, Action>: @unchecked Sendable {
  private let isBuilt = Atomic<Bool>(false)
  private let lock = Mutex(())
  // Written once, under the lock, before `isBuilt` is set; read only after it is.
  private var reducer: (any Reducer<State, Action>)?
  private var function: ((inout State, Action) -> Effect<Action>)?

  init(_ reducer: some Reducer<State, Action>) {
    self.reducer = reducer
  }

  func callAsFunction(_ state: inout State, _ action: Action) -> Effect<Action> {
    if !isBuilt.load(ordering: .acquiring) {
      lock.withLock { _ in
        guard function == nil else { return }
        function = reducer!._reduceFunction()
        reducer = nil
        isBuilt.store(true, ordering: .releasing)
      }
    }
    return function!(&state, action)
  }
}
