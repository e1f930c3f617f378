import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: conforms a state struct to `BindableFields`, listing the properties
/// marked `@BindingState`: the only fields clients may set with a binding action.
///
/// A struct that declares `Codable` (or `Encodable`, `Decodable`) also gets its coding from
/// its declaration: `CodingKeys`, `encode(to:)` with the JSON synthesized `Codable` gives,
/// an `init(from:)` that reads states saved before properties were added or removed,
/// `JSONWritable` (and with `Equatable`, `JSONDiffable`) writing and diffing that JSON
/// member by member, and `JSONSchemaDescribable`. `CodingKeys`, `encode(to:)` and
/// `init(from:)` declared in the body are honoured; declared in an extension, they are
/// redeclarations of the generated ones. On anything but a struct it does nothing.
public struct ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
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
    let coding: StateCoding
    do {
      guard let made = try StateCoding(of: declaration, missing: missing) else { return extensions }
      coding = made
    } catch let unsupported as UnsupportedMember {
      context.diagnose(Diagnostic(node: unsupported.node, message: UnsupportedCoding(reason: unsupported.reason)))
      return extensions
    }
    let (conformances, members) = coding.members(access: access)
    guard !members.isEmpty || !conformances.isEmpty else { return extensions }
    let inheritance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")
    extensions.append(
      try ExtensionDeclSyntax(
        """
        extension \(type.trimmed)\(raw: inheritance) {
        \(raw: members.joined(separator: "\n\n"))
        }
        """))
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

/// The warning for a `Codable` struct whose coding the macro leaves to the compiler.
struct UnsupportedCoding: DiagnosticMessage {
  let reason: String

  var message: String {
    """
    @ObservableState cannot generate this state's coding because of \(reason), so it is left \
    to synthesized Codable: a state saved before a property was added will not decode, and the \
    schema cannot describe it. Move it out of the state, or write init(from:) and encode(to:) \
    in the struct's body
    """
  }

  var diagnosticID: MessageID { MessageID(domain: "ComposableMacros", id: "unsupportedCoding") }
  var severity: DiagnosticSeverity { .warning }
}
