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
public struct ObservableStateMacro: ExtensionMacro, MemberMacro, MemberAttributeMacro {
  /// A struct's registrar, identity and `_$willModify()`; an enum's identity (its case's,
  /// with its payload's) and `_$willModify()` (its payload's).
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let access = declaration.accessPrefix(in: context)
    if declaration.is(StructDeclSyntax.self) {
      guard !ObservationTracking.leavesCodingToSwift(declaration) else { return [] }
      let registrar = ObservationTracking.registrar
      return [
        "@ObservationStateIgnored var \(raw: registrar) = ObservationStateRegistrar()",
        "\(raw: access)var _$id: ObservableStateID { \(raw: registrar).id }",
        "\(raw: access)mutating func _$willModify() { \(raw: registrar)._$willModify() }",
      ]
    }
    guard declaration.is(EnumDeclSyntax.self) else { return [] }
    // Cases under `#if` get their lines under the same `#if`.
    var index = 0
    func lines(_ members: MemberBlockItemListSyntax, _ line: (EnumCaseElementSyntax, Int) -> String?) -> [String] {
      members.flatMap { member -> [String] in
        if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
          return caseDecl.elements.compactMap { element in
            defer { index += 1 }
            return line(element, index)
          }
        }
        guard let ifConfig = member.decl.as(IfConfigDeclSyntax.self) else { return [] }
        var result: [String] = []
        for clause in ifConfig.clauses {
          let directive = clause.poundKeyword.text + (clause.condition.map { " " + $0.trimmedDescription } ?? "")
          result.append(directive)
          if case .decls(let members) = clause.elements { result += lines(members, line) }
        }
        return result + ["#endif"]
      }
    }
    func single(_ element: EnumCaseElementSyntax) -> String? {
      guard let parameters = element.parameterClause?.parameters, parameters.count == 1 else { return nil }
      return parameters.first?.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }.map { "\($0): " } ?? ""
    }
    // A case with one value has that value's identity; any other case a new one at each
    // read, so that assigning it always counts as a change.
    let ids = lines(declaration.memberBlock.members) { element, index in
      single(element) != nil
        ? "case let .\(element.name.text)(v0): return ObservableStateID._$id(for: v0)._$tag(\(index))"
        : "case .\(element.name.text): return ObservableStateID()._$tag(\(index))"
    }
    index = 0
    let modifications = lines(declaration.memberBlock.members) { element, _ in
      single(element).map { label in
        """
        if case var .\(element.name.text)(v0) = self {
          Composable._$willModify(&v0)
          self = .\(element.name.text)(\(label)v0)
          return
        }
        """
      }
    }
    let id =
      index == 0
      ? "\(access)var _$id: ObservableStateID { ObservableStateID() }"
      : """
        \(access)var _$id: ObservableStateID {
          switch self {
          \(ids.joined(separator: "\n"))
          }
        }
        """
    let modify = """
      \(access)mutating func _$willModify() {
      \(modifications.joined(separator: "\n"))
      }
      """
    return ["\(raw: id)", "\(raw: modify)"]
  }

  /// `@ObservationStateTracked` on each property of a struct that is observed.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self), let variable = member.as(VariableDeclSyntax.self),
      ObservationTracking.isTracked(variable), !variable.attributes.contains(named: "ObservationStateTracked"),
      !ObservationTracking.leavesCodingToSwift(declaration)
    else { return [] }
    return ["@ObservationStateTracked"]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let missing = Set(protocols.map(\.trimmedDescription))
    var extensions: [ExtensionDeclSyntax] = []
    let isObservable =
      declaration.is(EnumDeclSyntax.self)
      || (declaration.is(StructDeclSyntax.self) && !ObservationTracking.leavesCodingToSwift(declaration))
    if isObservable, missing.contains("ObservableState") {
      extensions.append(try ExtensionDeclSyntax("extension \(type.trimmed): ObservableState {}"))
    }
    guard declaration.is(StructDeclSyntax.self) else { return extensions }
    let access = declaration.accessPrefix(in: context)
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
    to synthesized Codable and the state is not observed: a state saved before a property was added will not decode, and the \
    schema cannot describe it. Move it out of the state, or write init(from:) and encode(to:) \
    in the struct's body
    """
  }

  var diagnosticID: MessageID { MessageID(domain: "ComposableMacros", id: "unsupportedCoding") }
  var severity: DiagnosticSeverity { .warning }
}
