/// A stored property that `Codable` reads and writes, and its name in JSON.
struct CodedProperty {
  let property: StoredProperty
  /// The JSON name, or `nil` when a declared `CodingKeys` computes it.
  let jsonName: String?
}

/// The source of `CodingKeys` for `properties`, each under its own name: what the generated
/// `encode(to:)` and `init(from:)` use when the struct declares none.
func stateCodingKeysSource(_ properties: [StoredProperty]) -> String {
  let cases = properties.map { "  case \($0.name)" }
  // An enum without cases cannot have raw values.
  let rawType = properties.isEmpty ? "" : "String, "
  return """
    /// The JSON names of the stored properties. To rename one, declare `CodingKeys` in the
    /// struct's body, where `@ObservableState` sees it: one declared in an extension is a
    /// redeclaration of this one.
    private enum CodingKeys: \(rawType)CodingKey {
    \(cases.joined(separator: "\n"))
    }
    """
}

/// The source of `encode(to:)`: the JSON of synthesized `Encodable`, `nil` optionals left out.
func stateEncodeSource(_ properties: [CodedProperty], access: String) -> String {
  let lines = properties.map { "  try container.encodeProperty(self.\($0.property.storage), forKey: .\($0.property.name))" }
  let container = lines.isEmpty ? "  _ = encoder.container(keyedBy: CodingKeys.self)" : "  var container = encoder.container(keyedBy: CodingKeys.self)"
  return """
    /// Encodes the stored properties as synthesized `Encodable` does. Write a custom
    /// `encode(to:)` in the struct's body, where `@ObservableState` sees it: one declared in
    /// an extension is a redeclaration of this one.
    \(access)func encode(to encoder: any Encoder) throws {
    \(([container] + lines).joined(separator: "\n"))
    }
    """
}

/// The source of `init(from:)`, which reads JSON saved before the struct changed: a missing
/// member leaves a property with a default value at that default (an optional at `nil`),
/// members of removed properties are ignored, and anything else missing or mistyped throws.
func stateDecodeSource(_ properties: [CodedProperty], access: String) -> String {
  let lines = properties.map(\.property).filter(\.isDecoded).map { property in
    property.hasDefault
      ? "  try container.decodeProperty(&self.\(property.storage), forKey: .\(property.name))"
      : "  self.\(property.storage) = try container.decodeProperty(\\Self.\(property.storage), forKey: .\(property.name))"
  }
  let container = lines.isEmpty ? "  _ = try decoder.container(keyedBy: CodingKeys.self)" : "  let container = try decoder.container(keyedBy: CodingKeys.self)"
  return """
    /// Decodes the stored properties, and a state saved before the struct gained or lost
    /// some: a missing member leaves a property with a default value at that default (an
    /// optional at `nil`), and members of removed properties are ignored. Write a custom
    /// `init(from:)` in the struct's body, where `@ObservableState` sees it: one declared in
    /// an extension is a redeclaration of this one.
    \(access)init(from decoder: any Decoder) throws {
    \(([container] + lines).joined(separator: "\n"))
    }
    """
}
