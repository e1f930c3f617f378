import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: conforms a state struct to `BindableFields`, listing the properties
/// marked `@BindingState`: the only fields clients may set with a binding action. A struct
/// that declares `Codable` (or `Encodable`) also gets `JSONWritable`, and with `Equatable`
/// (or `Hashable`) `JSONDiffable`: its JSON written and diffed member by member, with the
/// bytes synthesized `Codable` gives. On anything but a struct it does nothing.
public struct ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self), !protocols.isEmpty else { return [] }
    let missing = Set(protocols.map(\.trimmedDescription))
    let access = declaration.accessPrefix(in: context)
    var extensions: [ExtensionDeclSyntax] = []
    if missing.contains("BindableFields") {
      let fields = try bindableFields(of: declaration).map {
        "BindableField(\"\(unescaped($0))\", \\Self.\($0))"
      }
      extensions.append(
        try ExtensionDeclSyntax(
          """
          extension \(type.trimmed): BindableFields {
            /// The fields marked `@BindingState`.
            \(raw: access)static var bindableFields: [BindableField<Self>] {
              [\(raw: fields.joined(separator: ", "))]
            }
          }
          """))
    }
    let isEncodable = declaration.inherits("Codable") || declaration.inherits("Encodable")
    let isEquatable = declaration.inherits("Equatable") || declaration.inherits("Hashable")
    if isEncodable, missing.contains("JSONWritable"), let properties = encodedProperties(of: declaration) {
      var conformances = ["JSONWritable"]
      var members = [writeJSONSource(properties, access: access)]
      if isEquatable, missing.contains("JSONDiffable") {
        conformances.append("JSONDiffable")
        members.append(writeJSONPatchSource(properties, access: access))
      }
      extensions.append(
        try ExtensionDeclSyntax(
          """
          extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {
          \(raw: members.joined(separator: "\n\n"))
          }
          """))
    }
    return extensions
  }

  /// The names of the properties marked `@BindingState`, in order.
  private static func bindableFields(of declaration: some DeclGroupSyntax) throws -> [String] {
    try declaration.memberBlock.members.flatMap { member -> [String] in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.attributes.contains(named: "BindingState")
      else { return [] }
      guard variable.bindingSpecifier.tokenKind == .keyword(.var),
        !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
      else {
        throw MacroError("@BindingState marks instance 'var' properties only")
      }
      return variable.bindings.compactMap {
        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      }
    }
  }
}
