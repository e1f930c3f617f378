import StoreHostJSON

/// A coded property of a struct, for ``JSONSchemaContext/object(_:)``: its JSON name, its
/// type (from its key path) and whether it has a default value.
public struct JSONSchemaProperty {
  let name: String
  let type: Any.Type
  let isOptional: Bool
  let hasDefault: Bool

  /// A property of type `Value`.
  public init<Root, Value>(_ name: String, _ property: KeyPath<Root, Value>, hasDefault: Bool) {
    (self.name, type, isOptional, self.hasDefault) = (name, Value.self, false, hasDefault)
  }

  /// An optional property: left out of the JSON when `nil`, as synthesized `Codable` does.
  public init<Root, Wrapped>(_ name: String, _ property: KeyPath<Root, Wrapped?>, hasDefault: Bool) {
    (self.name, type, isOptional, self.hasDefault) = (name, Wrapped.self, true, hasDefault)
  }
}

/// A case of an enum coded in the externally tagged form, for
/// ``JSONSchemaContext/tagged(_:)``: `"name"` without payload, `{"name": payload}` with one.
public struct JSONSchemaCase {
  enum Payload {
    case none
    case single(Any.Type)
    case labeled([(label: String, type: Any.Type)])
    case unlabeled([Any.Type])
  }

  let name: String
  let payload: Payload
  /// Marked `@Internal`: clients may not send it.
  let isInternal: Bool

  /// A case without payload.
  public init(_ name: String, isInternal: Bool = false) {
    (self.name, payload, self.isInternal) = (name, .none, isInternal)
  }

  /// A case with one unlabeled value: `{"name": value}`.
  public init(_ name: String, payload: Any.Type, isInternal: Bool = false) {
    (self.name, self.payload, self.isInternal) = (name, .single(payload), isInternal)
  }

  /// A case whose values are all labeled: `{"name": {"label": value, ...}}`.
  public init(_ name: String, labeled: KeyValuePairs<String, Any.Type>, isInternal: Bool = false) {
    (self.name, payload, self.isInternal) = (name, .labeled(labeled.map { ($0.key, $0.value) }), isInternal)
  }

  /// A case with several values, not all labeled: `{"name": [first, second, ...]}`.
  public init(_ name: String, unlabeled: [Any.Type], isInternal: Bool = false) {
    (self.name, payload, self.isInternal) = (name, .unlabeled(unlabeled), isInternal)
  }

  var payloadTypes: [Any.Type] {
    switch payload {
    case .none: []
    case .single(let type): [type]
    case .labeled(let values): values.map(\.type)
    case .unlabeled(let types): types
    }
  }
}

extension JSONSchemaContext {
  /// An object of `properties`. Written, every property is required but the optional ones
  /// (left out when `nil`); read, those with default values may be left out too.
  public mutating func object(_ properties: [JSONSchemaProperty]) -> JSONValue {
    var members: [String: JSONValue] = [:]
    var required: [JSONValue] = []
    for property in properties {
      members[property.name] = schema(of: property.type)
      if !property.isOptional, usage == .written || !property.hasDefault {
        required.append(.string(property.name))
      }
    }
    return ["type": "object", "properties": .object(members), "required": .array(required)]
  }

  /// One alternative per case. Read, a case whose payload is not `Decodable` cannot be sent
  /// and is left out, and so are `@Internal` cases under ``clientsOnly``.
  public mutating func tagged(_ cases: [JSONSchemaCase]) -> JSONValue {
    let alternatives = cases.compactMap { alternative(for: $0) }
    return alternatives.count == 1 ? alternatives[0] : ["oneOf": .array(alternatives)]
  }

  private mutating func alternative(for enumCase: JSONSchemaCase) -> JSONValue? {
    if usage == .read {
      if clientsOnly, enumCase.isInternal { return nil }
      guard enumCase.payloadTypes.allSatisfy({ $0 is any Decodable.Type }) else { return nil }
    }
    let payload: JSONValue
    switch enumCase.payload {
    case .none:
      return ["const": .string(enumCase.name)]
    case .single(let type):
      payload = schema(of: type)
    case .labeled(let values):
      var members: [String: JSONValue] = [:]
      for (label, type) in values { members[label] = schema(of: type) }
      // An optional value may be left out.
      let required = values.filter { !($0.type is any OptionalPayload.Type) }.map { JSONValue.string($0.label) }
      payload = ["type": "object", "properties": .object(members), "required": .array(required)]
    case .unlabeled(let types):
      let count = JSONValue.int(Int64(types.count))
      payload = ["type": "array", "prefixItems": .array(types.map { schema(of: $0) }), "minItems": count, "maxItems": count]
    }
    return oneMember(enumCase.name, payload)
  }

  /// `{"name": value}` and nothing else.
  func oneMember(_ name: String, _ value: JSONValue) -> JSONValue {
    ["type": "object", "properties": [name: value], "required": [.string(name)], "additionalProperties": false]
  }
}
