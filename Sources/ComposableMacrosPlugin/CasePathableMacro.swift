import SwiftSyntax
import SwiftSyntaxMacros

/// `@CasePathable`: makes an enum `CasePathable` (case paths for `\.case` key paths),
/// `Codable` in the externally tagged form and `JSONSchemaDescribable` from its cases, and
/// gives a `binding` case a fast accessor.
///
/// The members are written inside the enum, so payload types resolve as they do in its
/// cases (a sibling type of the enum's parent, say); an extension adds the conformances.
/// A nested `enum View` (the actions of a `ViewAction`) is made case-pathable too (by
/// `@_CasePathableView`, the same expansion), so `\.view.binding.code` is a key path.
public struct CasePathableMacro: MemberMacro, ExtensionMacro, MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let nested = member.as(EnumDeclSyntax.self), nested.name.text == "View",
      !nested.attributes.contains(named: "CasePathable"), !nested.attributes.contains(named: "_CasePathableView")
    else { return [] }
    return ["@_CasePathableView"]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(EnumDeclSyntax.self) else { throw MacroError("@CasePathable applies to enums only") }
    var candidates = ["CasePathable", "Encodable", "Decodable"]
    if describesSchema(declaration) { candidates.append("JSONSchemaDescribable") }
    let missing = Set(protocols.map(\.trimmedDescription))
    let conformances = candidates.filter(missing.contains)
    var extensions: [ExtensionDeclSyntax] = []
    if !conformances.isEmpty {
      extensions.append(try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}"))
    }
    if readsJSON(declaration, missing: missing) {
      extensions.append(try ExtensionDeclSyntax("extension \(type.trimmed): JSONReadableAction {}"))
    }
    if writesJSON(declaration, missing: missing) {
      extensions.append(try ExtensionDeclSyntax("extension \(type.trimmed): JSONWritable {}"))
    }
    return extensions
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
      throw MacroError("@CasePathable applies to enums only")
    }
    let cases = EnumCase.all(of: enumDecl)
    let access = declaration.accessPrefix(in: context)
    let missing = Set(protocols.map(\.trimmedDescription))
    var members: [String] = []

    /// Whether to write `member` for `conformance`: unless the enum implements it, when the
    /// type does not conform yet or declares the conformance itself (to replace synthesis).
    func needs(_ conformance: String, _ member: String) -> Bool {
      let isMissing = missing.contains(conformance)
      let declared = declaration.inherits(conformance) || declaration.inherits("Codable")
      return (isMissing || declared) && !declaration.declares(member)
    }

    if missing.contains("CasePathable") {
      members.append(casePathsSource(root: enumDecl.name.text, cases: cases, access: access))
    }
    if needs("Encodable", "encode(to:)") {
      members.append(encodeSource(cases: cases, access: access))
    }
    if writesJSON(declaration, missing: missing) {
      members.append(writeJSONSource(cases: cases, access: access))
    }
    if needs("Decodable", "init(from:)") {
      members.append(decodeSource(cases: cases, access: access))
    }
    if readsJSON(declaration, missing: missing) {
      members.append(readJSONSource(cases: cases, access: access))
    }
    if missing.contains("JSONSchemaDescribable"), describesSchema(declaration), !declaration.declares("jsonSchema(in:)") {
      members.append(enumSchemaSource(cases: cases, access: access))
    }
    if let binding = cases.first(where: { $0.tag == "binding" && $0.parameters.count == 1 }),
      binding.parameters[0].label == nil, binding.payloadType.hasPrefix("BindingAction<")
    {
      members.append(
        """
        /// The binding action, when this action is one.
        \(access)var binding: \(binding.payloadType)? {
          if case let .binding(action) = self { action } else { nil }
        }
        """)
    }
    return members.map { "\(raw: $0)" }
  }

  /// Whether the enum gets `readJSON(from:)`: when its `init(from:)` is generated, from the
  /// same cases.
  private static func readsJSON(_ declaration: some DeclGroupSyntax, missing: Set<String>) -> Bool {
    missing.contains("JSONReadableAction") && !declaration.declares("init(from:)")
      && (missing.contains("Decodable") || declaration.inherits("Decodable") || declaration.inherits("Codable"))
  }

  /// Whether the enum gets `writeJSON(to:)`: when its `encode(to:)` is generated, from the
  /// same cases.
  private static func writesJSON(_ declaration: some DeclGroupSyntax, missing: Set<String>) -> Bool {
    missing.contains("JSONWritable") && !declaration.declares("encode(to:)")
      && (missing.contains("Encodable") || declaration.inherits("Encodable") || declaration.inherits("Codable"))
  }

  /// Whether the enum is `JSONSchemaDescribable`: by the one it declares, or by the schema
  /// of the tagged JSON generated from its cases, unless it writes both its own
  /// `encode(to:)` and `init(from:)` (one of them alone is taken to read or write that JSON).
  private static func describesSchema(_ declaration: some DeclGroupSyntax) -> Bool {
    declaration.declares("jsonSchema(in:)") || !(declaration.declares("init(from:)") && declaration.declares("encode(to:)"))
  }
}

/// `@_CasePathableView`: ``CasePathableMacro``'s expansion for a nested `enum View`, under
/// another name, since a macro may not add itself to a member.
public struct NestedCasePathableMacro: MemberMacro, ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    try CasePathableMacro.expansion(
      of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    try CasePathableMacro.expansion(of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
  }
}
