/// An action that sets one field of `Root`, sent by a form control (or, on a server, by a
/// client writing `{"binding": {"text": "Hi"}}`). ``BindingReducer`` applies it.
///
/// Match a particular field in a reducer with a key path pattern:
///
/// ```swift
/// case .binding(\.text):
///   return .send(.textChanged)
/// ```
public struct BindingAction<Root>: Sendable, CustomStringConvertible {
  /// The field this action sets.
  public let keyPath: PartialKeyPath<Root> & Sendable
  /// The new value of the field.
  public let value: any Sendable
  private let apply: @Sendable (inout Root) -> Void
  private let valueIsEqual: @Sendable (any Sendable) -> Bool

  /// An action that sets `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: Value
  ) -> Self {
    BindingAction(
      keyPath: keyPath,
      value: value,
      apply: { $0[keyPath: keyPath] = value },
      valueIsEqual: { ($0 as? Value) == value }
    )
  }

  /// Writes the new value into `root`.
  public func set(_ root: inout Root) { apply(&root) }

  public var description: String { "\(keyPath) = \(value)" }

  /// Matches a binding action that sets the field `keyPath`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath as PartialKeyPath<Root> == keyPath
  }
}

extension BindingAction: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.valueIsEqual(rhs.value)
  }
}

/// An action enum with a `binding` case, so ``BindingReducer`` can find binding actions:
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case submitButtonTapped
/// }
/// ```
public protocol BindableAction {
  /// The state the binding actions set.
  associatedtype State
  /// Embeds a binding action; the `binding` case satisfies this requirement.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action, when this action is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The binding action that sets `keyPath` to `value`: `.set(\.isOn, true)`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable, _ value: Value
  ) -> Self {
    binding(.set(keyPath, value))
  }

  /// Finds the payload of a case named `binding` by reflection. `@CasePathable` enums get a
  /// faster generated accessor.
  public var binding: BindingAction<State>? {
    let child = Mirror(reflecting: self).children.first
    guard child?.label == "binding" else { return nil }
    return child?.value as? BindingAction<State>
  }
}
