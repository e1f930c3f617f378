import SwiftSyntax
import SwiftSyntaxMacros

/// `@_StoreSendable`, which `@Reducer` puts on a feature's `public` or `package` `State` and
/// `Action`: declares them `Sendable` as an internal type's would be inferred. A store keeps
/// its state behind its lock and hands actions to effects through `Send`, so a feature's
/// types need no more than TCA asks of them.
public struct StoreSendableMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty, !declaration.inherits("Sendable") else { return [] }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): @unchecked Sendable {}")]
  }
}
