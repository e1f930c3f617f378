/// Text to show: `TextState("Delete?")`. Plain data on a server: a page shows its string.
public struct TextState: Equatable, Hashable, Codable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public var string: String

  public init(_ string: String) { self.string = string }
  public init(stringLiteral string: String) { self.string = string }

  public init(from decoder: any Decoder) throws {
    self.string = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }

  public var description: String { string }
}

/// What a button is for, for a page to style it.
public enum ButtonStateRole: String, Equatable, Hashable, Codable, Sendable, CaseIterable {
  case cancel, destructive
}

/// A button of an alert or a confirmation dialog: its label, role, and the action it
/// sends (`nil`: it only dismisses). On the wire: `{"label", "role"?, "action"?}`.
public struct ButtonState<Action> {
  public var role: ButtonStateRole?
  public var action: Action?
  public var label: TextState

  /// `ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }`.
  public init(role: ButtonStateRole? = nil, action: Action? = nil, label: () -> TextState) {
    self.init(role: role, action: action, label: label())
  }

  init(role: ButtonStateRole?, action: Action?, label: TextState) {
    (self.role, self.action, self.label) = (role, action, label)
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Sendable where Action: Sendable {}

private enum ButtonCodingKey: String, CodingKey {
  case label, role, action
}

extension ButtonState: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ButtonCodingKey.self)
    try container.encode(label, forKey: .label)
    try container.encodeIfPresent(role, forKey: .role)
    try container.encodeIfPresent(action, forKey: .action)
  }
}

extension ButtonState: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ButtonCodingKey.self)
    self.init(
      role: try container.decodeIfPresent(ButtonStateRole.self, forKey: .role),
      action: try container.decodeIfPresent(Action.self, forKey: .action),
      label: try container.decode(TextState.self, forKey: .label))
  }
}

/// Collects the buttons of an alert or a dialog.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ buttons: [ButtonState<Action>]...) -> [ButtonState<Action>] { buttons.flatMap { $0 } }
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] { [button] }
  public static func buildOptional(_ buttons: [ButtonState<Action>]?) -> [ButtonState<Action>] { buttons ?? [] }
  public static func buildEither(first buttons: [ButtonState<Action>]) -> [ButtonState<Action>] { buttons }
  public static func buildEither(second buttons: [ButtonState<Action>]) -> [ButtonState<Action>] { buttons }
  public static func buildArray(_ buttons: [[ButtonState<Action>]]) -> [ButtonState<Action>] { buttons.flatMap { $0 } }
}

/// An alert as data, which the page shows and answers with the action of the button
/// tapped: present it with `@Presents var alert: AlertState<Action.Alert>?`.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete this todo?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
/// }
/// ```
///
/// On the wire: `{"title", "message"?, "buttons": [{"label", "role"?, "action"?}]}`.
public struct AlertState<Action>: Identifiable {
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  /// Alerts are compared by their content.
  public var id: String { title.string + "\u{1F}" + (message?.string ?? "") }

  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Codable where Action: Codable {}

/// A confirmation dialog as data: like ``AlertState``, for a choice among several actions.
/// `titleVisibility` tells the page whether to show the title.
public struct ConfirmationDialogState<Action>: Identifiable {
  public enum Visibility: String, Equatable, Codable, Sendable, CaseIterable {
    case automatic, hidden, visible
  }

  public var titleVisibility: Visibility
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public var id: String { title.string + "\u{1F}" + (message?.string ?? "") }

  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Codable where Action: Codable {}

/// State whose presentation ends by itself once answered: an alert or a dialog is gone
/// when one of its buttons is tapped, so `ifLet` dismisses it after any of its actions, and
/// presents it with no reducer: `.ifLet(\.$alert, action: \.alert)`.
public protocol _EphemeralState {
  /// The actions its buttons send.
  associatedtype Action
}

extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}

/// Whether `state` (or the payload of its enum case) is ``_EphemeralState``.
func isEphemeral(_ state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return false }
  return payload is any _EphemeralState
}

extension Reducer {
  /// `ifLet(_:action:destination:fileID:line:)` for a presented alert or dialog, which
  /// has no reducer: `.ifLet(\.$alert, action: \.alert)`.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>>
  where DestinationState.Action == DestinationAction {
    ifLet(toPresentationState, action: toPresentationAction, destination: { EmptyReducer() }, fileID: fileID, line: line)
  }
}

extension Reducer {
  /// An alert or a dialog in plain optional state, dismissed by any of its actions:
  /// `.ifLet(\.alert, action: \.alert)`.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?> & Sendable,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(toWrappedState, action: AnyCasePath(toWrappedAction), fileID: fileID, line: line)
  }
}
