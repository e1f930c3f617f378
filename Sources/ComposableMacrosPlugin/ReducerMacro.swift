import SwiftSyntax
import SwiftSyntaxMacros

/// `@Reducer`: conforms a struct to `Reducer`, marks its nested `enum Action`
/// `@CasePathable` (for `\.child` case key paths and the JSON coding of actions), and builds
/// `body` with `ReducerBuilder`, which a conformance added by a macro does not infer.
public struct ReducerMacro: ExtensionMacro, MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) else {
      throw MacroError("@Reducer applies to structs only")
    }
    guard !protocols.isEmpty else { return [] }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): Reducer {}")]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    if let action = member.as(EnumDeclSyntax.self), action.name.text == "Action",
      !action.attributes.contains(named: "CasePathable")
    {
      return ["@CasePathable"]
    }
    if let body = member.as(VariableDeclSyntax.self),
      body.bindings.first?.pattern.trimmedDescription == "body",
      !body.attributes.contains(named: "ReducerBuilder")
    {
      return ["@ReducerBuilder<Self.State, Self.Action>"]
    }
    return []
  }
}
