import Foundation

extension Reducer {
  /// Prints each action and the state change it caused, as a diff of the state's
  /// ``customDump(_:)``.
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
    let before = customDump(state)
    let effects = base.reduce(into: &state, action: action)
    let after = customDump(state)
    var message = "received action:\n" + indented(customDump(action)) + "\n"
    if before == after {
      message += "  (No state changes)"
    } else {
      message += TextDiff.lines(from: lines(before), to: lines(after)).joined(separator: "\n")
    }
    printer(message)
    return effects
  }

  private func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  private func indented(_ text: String) -> String {
    lines(text).map { "  " + $0 }.joined(separator: "\n")
  }
}
