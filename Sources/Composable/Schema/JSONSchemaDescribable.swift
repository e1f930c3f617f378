import StoreHostJSON

/// A type that describes its JSON with a JSON Schema, without decoding anything.
///
/// `@ObservableState` structs and `@CasePathable` enums get this conformance from their
/// declarations. Conform a type they cannot see (one of your own with a custom `Codable`,
/// a third-party one) by hand:
///
/// ```swift
/// extension Money: JSONSchemaDescribable {
///   static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
///     ["type": "string", "pattern": "^[0-9]+\\.[0-9]{2} [A-Z]{3}$"]
///   }
/// }
/// ```
public protocol JSONSchemaDescribable {
  /// The schema of this type's JSON; `context.schema(of:)` gives those of the types inside it.
  static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue
}

/// What a schema is made for, and the schemas of the types described so far.
public struct JSONSchemaContext {
  /// Which JSON a schema describes.
  public enum Usage: Sendable {
    /// What the app writes, such as a state: a property is required unless it is optional.
    case written
    /// What the app reads, such as an action: a property with a default value may be left out.
    case read
  }

  public let usage: Usage
  /// Whether the action cases clients may not send (`@Internal`) are left out.
  public let clientsOnly: Bool
  private var known: [ObjectIdentifier: JSONValue] = [:]
  private var inProgress: Set<ObjectIdentifier> = []

  init(usage: Usage, clientsOnly: Bool) {
    self.usage = usage
    self.clientsOnly = clientsOnly
  }

  /// The schema of `type`: its own (``JSONSchemaDescribable``), or the fallback for a type
  /// that does not describe itself.
  public mutating func schema(of type: Any.Type) -> JSONValue {
    let id = ObjectIdentifier(type)
    if let schema = known[id] { return schema }
    guard !inProgress.contains(id) else {
      return ["description": .string("any JSON: \(typeName(type)) contains itself")]
    }
    let schema: JSONValue
    if let describable = type as? any JSONSchemaDescribable.Type {
      inProgress.insert(id)
      schema = describable.jsonSchema(in: &self)
      inProgress.remove(id)
    } else {
      schema = Self.fallback(for: type)
    }
    known[id] = schema
    return schema
  }

  /// A `CaseIterable` enum with raw values: its raw values. Anything else: any JSON.
  private static func fallback(for type: Any.Type) -> JSONValue {
    if let enumeration = type as? any (CaseIterable & RawRepresentable).Type, let values = rawValues(of: enumeration) {
      return ["enum": .array(values)]
    }
    return [
      "description": .string(
        "any JSON: \(typeName(type)) is not described (mark it @ObservableState or @CasePathable,"
          + " or conform it to JSONSchemaDescribable)")
    ]
  }

  private static func rawValues<Enumeration: CaseIterable & RawRepresentable>(of type: Enumeration.Type) -> [JSONValue]? {
    let values = type.allCases.compactMap { ($0.rawValue as? any Encodable).flatMap { try? JSONValue(encoding: $0) } }
    return values.isEmpty ? nil : values
  }
}
