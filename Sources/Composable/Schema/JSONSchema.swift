import StoreHostJSON

/// JSON Schemas (draft 2020-12) of types' JSON, made from their declarations: no decoder or
/// encoder runs.
///
/// `@ObservableState` and `@CasePathable` (so `@Reducer`) describe the types they are
/// attached to (see ``JSONSchemaDescribable``); standard library, Foundation and
/// architecture types (`IdentifiedArray`, `StackState`, `PresentationState`, `AlertState`,
/// ...) describe themselves. Other types fall back: a `CaseIterable` enum with raw values
/// is the list of its raw values; anything else is `{}`, any JSON, with a `description`
/// saying why. Actions come out as the wire protocol writes them (`"tapped"` or
/// `{"case": payload}`), one alternative per case, without the `@Internal` cases clients
/// may not send; bindings as one-key objects of the bindable fields.
///
/// ```swift
/// let schema = JSONSchema.document(state: AppFeature.State.self, action: AppFeature.Action.self)
/// ```
public enum JSONSchema {
  /// The identifier of the draft the documents follow.
  public static let draft = "https://json-schema.org/draft/2020-12/schema"

  /// The schema of `type`'s JSON as the app writes it (a state) or reads it (an action).
  /// - Parameter clientsOnly: Leave out the action cases clients may not send.
  public static func schema(of type: Any.Type, for usage: JSONSchemaContext.Usage, clientsOnly: Bool = true) -> JSONValue {
    var context = JSONSchemaContext(usage: usage, clientsOnly: clientsOnly)
    return context.schema(of: type)
  }

  /// A document whose `$defs` hold `State`, the JSON of `state` as the app writes it, and
  /// `Action`, the JSON of `action` as the app reads it.
  public static func document(state: Any.Type, action: Any.Type, clientsOnly: Bool = true) -> JSONValue {
    [
      "$schema": .string(draft),
      "$defs": [
        "State": schema(of: state, for: .written, clientsOnly: clientsOnly),
        "Action": schema(of: action, for: .read, clientsOnly: clientsOnly),
      ],
    ]
  }
}
