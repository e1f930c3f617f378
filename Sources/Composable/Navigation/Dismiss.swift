extension DependencyValues {
  /// Dismisses the feature that reads it, from its effects: `await dismiss()` sends
  /// `.dismiss` for a feature presented with `Reducer/ifLet(_:action:destination:fileID:line:)`
  /// and `.popFrom(id:)` for one pushed on a stack (`Reducer.forEach(_:action:destination:)`).
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

/// Dismisses the presented or pushed feature whose effect calls it: `await dismiss()`.
///
/// It finds what to dismiss when called, from the effect it runs in, so it may be read in
/// the reducer and captured (`.run { [dismiss] _ in await dismiss() }`) as well as read in
/// the effect.
public struct DismissEffect: Sendable {
  private let dismiss: (@Sendable () async -> Void)?

  init(_ dismiss: (@Sendable () async -> Void)?) {
    self.dismiss = dismiss
  }

  /// How the effect running now dismisses its feature: set by `ifLet` and `forEach` on
  /// navigation state around the effects of the features they run.
  @TaskLocal static var presentation: DismissEffect?

  /// Asks the parent to dismiss this feature; reports an issue where nothing presented it.
  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) async {
    let unpresented = DependencyValues.current[UnpresentedDismissalKey.self]
    guard let dismiss = dismiss ?? Self.presentation?.dismiss ?? unpresented else {
      reportIssue(
        """
        "@Dependency(\\.dismiss)" was called outside a feature presented with "ifLet" on \
        presentation state or pushed with "forEach" on stack state.
        """, fileID: fileID, line: line)
      return
    }
    await dismiss()
  }
}

/// What a feature that nothing presents does when it dismisses itself: a test store's feature
/// records it (``TestStore/isDismissed``).
enum UnpresentedDismissalKey: DependencyKey {
  static let liveValue: (@Sendable () async -> Void)? = nil
  static let testValue: (@Sendable () async -> Void)? = nil
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(nil)
  static let testValue = DismissEffect(nil)
}

extension Effect {
  /// This child effect's actions as `transform` makes them, run with a ``DismissEffect``
  /// that sends `dismissal`: what `ifLet` and `forEach` on navigation state return.
  func presented<Parent>(
    as transform: @escaping @Sendable (Action) -> Parent, dismissal: Parent
  ) -> Effect<Parent> where Parent: Sendable {
    map(transform) { run, send in
      await DismissEffect.$presentation.withValue(DismissEffect { await send(dismissal) }) { await run() }
    }
  }
}
