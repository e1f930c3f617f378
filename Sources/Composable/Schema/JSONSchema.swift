import StoreHostJSON

/// JSON Schemas (draft 2020-12) of the JSON that types' `Decodable` conformances accept,
/// found by running their initializers against a recording decoder.
///
/// Actions come out as the wire protocol writes them (`"tapped"` or `{"case": payload}`),
/// one alternative per case, without the `@Internal` cases clients may not send; bindings
/// as one-key objects of the bindable fields. A type whose initializer cannot run on
/// placeholder values (one that validates them, say) is described as far as it got, and
/// a type that contains itself as `{}`, anything.
///
/// ```swift
/// let schema = JSONSchema.document(defining: ["State": AppFeature.State.self, "Action": AppFeature.Action.self])
/// ```
public enum JSONSchema {
  /// The identifier of the draft the documents follow.
  public static let draft = "https://json-schema.org/draft/2020-12/schema"

  /// The schema of `type`'s JSON.
  /// - Parameter clientsOnly: Leave out the action cases clients may not send.
  public static func schema(of type: any Decodable.Type, clientsOnly: Bool = true) -> JSONValue {
    SchemaProbe(clientsOnly: clientsOnly).schema(of: type)
  }

  /// A document whose `$defs` hold the schema of each type, by name.
  public static func document(
    defining types: KeyValuePairs<String, any Decodable.Type>, clientsOnly: Bool = true
  ) -> JSONValue {
    let probe = SchemaProbe(clientsOnly: clientsOnly)
    var definitions: [String: JSONValue] = [:]
    for (name, type) in types { definitions[name] = probe.schema(of: type) }
    return ["$schema": .string(draft), "$defs": .object(definitions)]
  }
}
