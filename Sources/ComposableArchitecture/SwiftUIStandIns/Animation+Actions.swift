#if canImport(SwiftUI)
  import SwiftUI
#endif

extension Send {
  /// Sends `action` as ``callAsFunction(_:)`` does. The animation is for a view that draws
  /// the change; a server has none, so it is ignored.
  public func callAsFunction(_ action: Action, animation: Animation?) async {
    await callAsFunction(action)
  }
}

/// What a button of an alert or a dialog does, as TCA spells it: `.send(.delete)`, or
/// `.send(.delete, animation: .default)` (the animation is ignored).
public struct ButtonStateAction<Action> {
  public let action: Action

  public static func send(_ action: Action, animation: Animation? = nil) -> Self {
    Self(action: action)
  }
}

extension ButtonState {
  /// A button that sends `action`: `ButtonState(role: .destructive, action: .send(.delete, animation: .default))`.
  public init(role: ButtonStateRole? = nil, action: ButtonStateAction<Action>, label: () -> TextState) {
    self.init(role: role, action: action.action, label: label)
  }
}
