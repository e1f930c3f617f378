import StoreHostJSON

// The schemas of the architecture's `Codable` types, as their conformances write them.

extension Shared: JSONSchemaDescribable {
  /// The value, as if it were not shared.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { context.schema(of: Value.self) }
}

extension SharedReader: JSONSchemaDescribable {
  /// The value, as if it were not shared.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { context.schema(of: Value.self) }
}

extension IdentifiedArray: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "array", "items": context.schema(of: Element.self)]
  }
}

extension PresentationState: JSONSchemaDescribable {
  /// The presented state, or `null`.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["anyOf": [context.schema(of: State.self), ["type": "null"]]]
  }
}

extension StackElementID: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "integer"] }
}

extension StackState: JSONSchemaDescribable {
  /// `[{"id": 0, "state": {...}}, ...]`.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    let element = context.object([
      JSONSchemaProperty("id", \Entry.id, hasDefault: false), JSONSchemaProperty("state", \Entry.state, hasDefault: false),
    ])
    return ["type": "array", "items": element]
  }

  /// An element as it is written.
  private struct Entry {
    let id: StackElementID
    let state: Element
  }
}

extension TextState: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue { ["type": "string"] }
}

extension ButtonState: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.object([
      JSONSchemaProperty("label", \Self.label, hasDefault: false),
      JSONSchemaProperty("role", \Self.role, hasDefault: false),
      JSONSchemaProperty("action", \Self.action, hasDefault: false),
    ])
  }
}

extension AlertState: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.object([
      JSONSchemaProperty("title", \Self.title, hasDefault: false),
      JSONSchemaProperty("message", \Self.message, hasDefault: false),
      JSONSchemaProperty("buttons", \Self.buttons, hasDefault: false),
    ])
  }
}

extension ConfirmationDialogState: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.object([
      JSONSchemaProperty("titleVisibility", \Self.titleVisibility, hasDefault: false),
      JSONSchemaProperty("title", \Self.title, hasDefault: false),
      JSONSchemaProperty("message", \Self.message, hasDefault: false),
      JSONSchemaProperty("buttons", \Self.buttons, hasDefault: false),
    ])
  }
}

extension PresentationAction: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.tagged([JSONSchemaCase("dismiss"), JSONSchemaCase("presented", payload: Action.self)])
  }
}

extension StackAction: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.tagged([
      JSONSchemaCase("element", labeled: ["id": StackElementID.self, "action": Action.self]),
      JSONSchemaCase("popFrom", labeled: ["id": StackElementID.self]),
      JSONSchemaCase("push", labeled: ["id": StackElementID.self, "state": State.self]),
    ])
  }
}

extension IdentifiedAction: JSONSchemaDescribable {
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    context.tagged([JSONSchemaCase("element", labeled: ["id": ID.self, "action": Action.self])])
  }
}

extension BindingAction: JSONSchemaDescribable {
  /// One alternative per bindable field (see ``BindableFields``): `{"field": value}`.
  public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    let fields = (Root.self as? any BindableFields.Type).map { bindableFieldTypes(of: $0) } ?? []
    let alternatives = fields.filter { $0.type is any Decodable.Type }.map { field in
      context.oneMember(field.name, context.schema(of: field.type))
    }
    return alternatives.count == 1 ? alternatives[0] : ["oneOf": .array(alternatives)]
  }
}

private func bindableFieldTypes<Root: BindableFields>(of root: Root.Type) -> [(name: String, type: Any.Type)] {
  root.bindableFields.map { ($0.name, $0.valueType) }
}
