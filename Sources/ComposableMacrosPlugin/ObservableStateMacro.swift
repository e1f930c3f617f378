import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: conforms a state struct to `BindableFields`, listing the properties
/// marked `@BindingState`: the only fields clients may set with a binding action.
/// On anything but a struct it does nothing.
public struct ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self), !protocols.isEmpty else { return [] }
    let fields = try bindableFields(of: declaration).map {
      "BindableField(\"\(unescaped($0))\", \\Self.\($0))"
    }
    return [
      try ExtensionDeclSyntax(
        """
        extension \(type.trimmed): BindableFields {
          /// The fields marked `@BindingState`.
          \(raw: declaration.accessPrefix)static var bindableFields: [BindableField<Self>] {
            [\(raw: fields.joined(separator: ", "))]
          }
        }
        """)
    ]
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
