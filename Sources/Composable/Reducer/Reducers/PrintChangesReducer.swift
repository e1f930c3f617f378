import Foundation

extension Reducer {
  /// Prints each action and the state change it caused, as a ``diff(_:_:format:)`` of the
  /// state before and after.
  ///
  /// - Parameter printer: Where lines go; standard error by default.
  public func _printChanges(
    _ printer: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: Reduce(self), printer: printer)
  }
}

/// The reducer built by ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Reduce<Base.State, Base.Action>
  let printer: @Sendable (String) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = DumpNode(state)
    let effects = base.reduce(into: &state, action: action)
    let changes = before.diff(DumpNode(state), format: .default) ?? "  (No state changes)"
    printer("received action:\n" + customDump(action).indented(by: 2) + "\n" + changes)
    return effects
  }
}
