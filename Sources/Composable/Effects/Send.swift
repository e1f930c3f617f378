/// Feeds actions from an effect back into its store: `await send(.response(value))`.
///
/// Each call returns once the store has reduced the action, so the actions of one effect
/// arrive in the order they were sent. After the effect is cancelled, calls do nothing.
public struct Send<Action>: Sendable {
  let send: @Sendable (Action) -> Void

  /// Creates a `Send` that hands each action to `send`.
  public init(send: @escaping @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action` to the store, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) async {
    guard !Task.isCancelled else { return }
    send(action)
  }

  func map<Child>(_ transform: @escaping @Sendable (Child) -> Action) -> Send<Child> {
    Send<Child> { [send] in send(transform($0)) }
  }
}
