import SwiftSyntax
import SwiftSyntaxMacros

/// `@Internal` and `@BindingState`: markers that other macros read; they expand to nothing.
public struct MarkerMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] { [] }
}
