/// An action with a case for the actions a view sends, as TCA's `ViewAction`:
/// `enum Action: ViewAction { case view(View) }`, where `View` is often `BindableAction`
/// (`BindingReducer(action: \.view)`, `store.send(\.view.binding.email, "blob@pointfree.co")`).
public protocol ViewAction<ViewAction> {
  associatedtype ViewAction
  /// Embeds a view's action; the `view` case satisfies this requirement.
  static func view(_ action: ViewAction) -> Self
}
