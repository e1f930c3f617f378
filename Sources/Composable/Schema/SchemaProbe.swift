import Foundation
import StoreHostJSON

/// Builds the JSON Schema of a `Decodable` type by running its `init(from:)` against a
/// ``ProbeDecoder``, which records what the initializer asks for and answers with
/// placeholder values. Action enums (``ActionDecodingContainer``) are run once per case.
/// One probe per schema document; not thread-safe.
final class SchemaProbe {
  /// Whether cases clients may not send (`@Internal`) are left out.
  let clientsOnly: Bool
  private var known: [ObjectIdentifier: JSONValue] = [:]
  private var inProgress: Set<ObjectIdentifier> = []
  /// How many placeholders are being made inside one another.
  private var placeholderDepth = 0

  init(clientsOnly: Bool) {
    self.clientsOnly = clientsOnly
  }

  /// The schema of `type`; `{}` (anything) for a type that refers to itself.
  func schema(of type: any Decodable.Type) -> JSONValue {
    let id = ObjectIdentifier(type)
    if let schema = known[id] { return schema }
    if let schema = WellKnownSchemas.schema(of: type) { return schema }
    guard !inProgress.contains(id) else { return [:] }
    inProgress.insert(id)
    defer { inProgress.remove(id) }
    let schema = probe(type)
    known[id] = schema
    return schema
  }

  /// A value of `type` for a parent's initializer to go on with.
  func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
    if let value = WellKnownSchemas.placeholder(of: type) { return value }
    // Placeholders hold empty collections; a type that holds itself in its first case
    // ends here.
    guard placeholderDepth < 64 else { throw SchemaProbeError.placeholderTooDeep }
    placeholderDepth += 1
    defer { placeholderDepth -= 1 }
    return try T(from: ProbeDecoder(probe: self, shape: Shape(), actionCase: nil, codingPath: [], isPlaceholder: true))
  }

  private func probe(_ type: any Decodable.Type) -> JSONValue {
    let shape = Shape()
    _ = try? type.init(from: ProbeDecoder(probe: self, shape: shape, actionCase: nil, codingPath: []))
    guard let cases = shape.actionCases else { return shape.schema() }
    let alternatives = cases.compactMap { name -> JSONValue? in
      let caseShape = Shape()
      let decoded = (try? type.init(from: ProbeDecoder(probe: self, shape: caseShape, actionCase: name, codingPath: []))) != nil
      guard let payload = caseShape.properties.first(where: { $0.key == name }) else {
        // A case whose payload cannot be decoded at all (not `Decodable`) cannot be sent.
        return decoded ? ["const": .string(name)] : nil
      }
      return [
        "type": "object", "properties": [name: payload.schema()], "required": [.string(name)],
        "additionalProperties": false,
      ]
    }
    return alternatives.count == 1 ? alternatives[0] : ["oneOf": .array(alternatives)]
  }
}

enum SchemaProbeError: Error {
  case placeholderTooDeep
}

/// What one initializer asked of its decoder: a single value, an object, an array, or the
/// case of an action.
final class Shape {
  struct Property {
    let key: String
    let value: Value
    let isRequired: Bool
    let isNullable: Bool

    func schema() -> JSONValue {
      let schema: JSONValue =
        switch value {
        case .schema(let schema): schema
        case .shape(let shape): shape.schema()
        }
      return isNullable ? ["anyOf": [schema, ["type": "null"]]] : schema
    }
  }

  enum Value {
    case schema(JSONValue)
    case shape(Shape)
  }

  var single: JSONValue?
  var isNullable = false
  var properties: [Property] = []
  /// The schema of the values of a dictionary (its keys were asked for).
  var isDictionary = false
  var items: [Value]?
  /// The case names of an action, and which of them to leave out.
  var actionCases: [String]?

  func add(_ key: String, _ value: Value, isRequired: Bool = true, isNullable: Bool = false) {
    guard !properties.contains(where: { $0.key == key }) else { return }
    properties.append(Property(key: key, value: value, isRequired: isRequired, isNullable: isNullable))
  }

  func schema() -> JSONValue {
    let schema = bareSchema()
    return isNullable ? ["anyOf": [schema, ["type": "null"]]] : schema
  }

  private func bareSchema() -> JSONValue {
    if let single { return single }
    if let items {
      let schemas = items.map { Property(key: "", value: $0, isRequired: true, isNullable: false).schema() }
      if schemas.count > 1 {
        return ["type": "array", "prefixItems": .array(schemas), "minItems": .int(Int64(schemas.count)),
          "maxItems": .int(Int64(schemas.count))]
      }
      return ["type": "array", "items": schemas.first ?? [:]]
    }
    if isDictionary {
      return ["type": "object", "additionalProperties": properties.first?.schema() ?? [:]]
    }
    guard !properties.isEmpty else { return [:] }
    var members: [String: JSONValue] = [:]
    for property in properties { members[property.key] = property.schema() }
    let required = properties.filter(\.isRequired).map { JSONValue.string($0.key) }
    return ["type": "object", "properties": .object(members), "required": .array(required)]
  }
}
