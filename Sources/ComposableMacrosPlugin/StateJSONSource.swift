import SwiftSyntax

/// A stored property as synthesized `Codable` encodes it: its JSON name, and the expression
/// (on `self`, `old` or `new`) whose `Encodable` conformance writes it.
struct EncodedProperty {
  let name: String
  let valuePath: String
}

/// The stored properties that synthesized `Encodable` writes, in JSON name order, or `nil`
/// when the struct's JSON cannot be known from its declaration alone: it declares
/// `CodingKeys` or `encode(to:)`, has members under `#if`, a `lazy` or tuple-pattern
/// property, or a property wrapper other than `@Shared`, `@SharedReader` and `@Presents`.
func encodedProperties(of declaration: some DeclGroupSyntax) -> [EncodedProperty]? {
  var properties: [EncodedProperty] = []
  for member in declaration.memberBlock.members {
    if member.decl.is(IfConfigDeclSyntax.self) { return nil }
    if let nested = member.decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" { return nil }
    if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode" { return nil }
    guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
    if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
      continue
    }
    if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return nil }
    // Wrappers whose projection is what synthesized `Codable` encodes.
    let isWrapped = ["Shared", "SharedReader", "Presents", "PresentationState"].contains {
      variable.attributes.contains(named: $0)
    }
    let knownAttributes = ["BindingState", "Shared", "SharedReader", "Presents", "PresentationState"]
    let unknown = variable.attributes.contains {
      guard let attribute = $0.as(AttributeSyntax.self) else { return true }
      let name = attribute.attributeName.trimmedDescription
      return !knownAttributes.contains { name == $0 || name.hasSuffix(".\($0)") }
    }
    if unknown { return nil }
    for binding in variable.bindings {
      guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
      if let accessors = binding.accessorBlock {
        guard let computed = isComputed(accessors) else { return nil }
        if computed { continue }
      }
      let name = unescaped(identifier)
      properties.append(EncodedProperty(name: name, valuePath: isWrapped ? "$\(name)" : identifier))
    }
  }
  return properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
}

/// Whether accessors make a property computed (a getter, rather than only observers);
/// `nil` for accessor syntax this code does not know.
private func isComputed(_ accessors: AccessorBlockSyntax) -> Bool? {
  switch accessors.accessors {
  case .getter: return true
  case .accessors(let list):
    return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
  @unknown default: return nil
  }
}

/// `writeJSON(to:)` writing `properties` as synthesized `Codable` would encode them.
func writeJSONSource(_ properties: [EncodedProperty], access: String) -> String {
  let fields = properties.map { "  try writer.field(\"\($0.name)\", self.\($0.valuePath))" }
  return """
    /// Writes the JSON of synthesized `Encodable` in one pass, members in name order.
    \(access)func writeJSON(to writer: inout JSONWriter) throws {
      writer.beginObject()
    \(fields.joined(separator: "\n"))
      writer.endObject()
    }
    """
}

/// `writeJSONPatch(from:to:into:)` diffing `properties` one by one.
func writeJSONPatchSource(_ properties: [EncodedProperty], access: String) -> String {
  let fields = properties.map { "  try patch.field(\"\($0.name)\", old.\($0.valuePath), new.\($0.valuePath))" }
  return """
    /// Diffs the members: equal ones are skipped, changed ones diffed or replaced.
    \(access)static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
      patch.beginObject()
    \(fields.joined(separator: "\n"))
      patch.endObject()
    }
    """
}
