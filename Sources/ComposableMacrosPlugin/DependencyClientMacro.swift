import SwiftSyntax
import SwiftSyntaxMacros

/// `@DependencyClient` on a struct: marks each closure property `@DependencyEndpoint` and
/// writes two initializers: one taking every stored property, and one taking all but the
/// endpoints, which stay unimplemented (`Client()` for a `testValue`).
public struct DependencyClientMacro: MemberAttributeMacro, MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let variable = member.as(VariableDeclSyntax.self), isEndpoint(variable),
      !variable.attributes.contains(named: "DependencyEndpoint")
    else { return [] }
    return ["@DependencyEndpoint"]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) else {
      throw MacroError("@DependencyClient applies to a struct of closures")
    }
    let access = declaration.accessPrefix(in: context)
    let stored = declaration.memberBlock.members.compactMap { ClientProperty($0.decl) }
    let others = stored.filter { !$0.isEndpoint }
    let endpoints = stored.filter(\.isEndpoint)
    // Plain properties first, so the endpoints' setters run on an initialized value.
    let memberwise = initializer(access: access, parameters: others + endpoints)
    guard !endpoints.isEmpty else { return [memberwise] }
    return [memberwise, initializer(access: access, parameters: others)]
  }

  private static func initializer(access: String, parameters: [ClientProperty]) -> DeclSyntax {
    let list = parameters.compactMap(\.parameter).joined(separator: ",\n  ")
    let assignments = parameters.filter { $0.parameter != nil }.map { "  self.\($0.name) = \($0.name)" }
    return """
      \(raw: access)init(\(raw: list.isEmpty ? "" : "\n  \(list)\n")) {
      \(raw: assignments.joined(separator: "\n"))
      }
      """
  }

  static func isEndpoint(_ variable: VariableDeclSyntax) -> Bool {
    variable.bindingSpecifier.tokenKind == .keyword(.var) && !variable.isStatic
      && variable.bindings.count == 1 && variable.bindings.first.flatMap(ClosureEndpoint.init) != nil
  }
}

/// A stored instance property of a dependency client and its initializer parameter.
private struct ClientProperty {
  let name: String
  let isEndpoint: Bool
  /// `name: Type = default`; `nil` for a property no initializer can set (a `let` with a value,
  /// or a `var` whose type is not written).
  let parameter: String?

  init?(_ decl: DeclSyntax) {
    guard let variable = decl.as(VariableDeclSyntax.self), !variable.isStatic,
      variable.bindings.count == 1, let binding = variable.bindings.first,
      binding.accessorBlock == nil,
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return nil }
    self.name = name
    self.isEndpoint = DependencyClientMacro.isEndpoint(variable)
    let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
    let value = binding.initializer?.value
    let type = binding.typeAnnotation.map(\.type.trimmedDescription) ?? value.flatMap(Self.literalType)
    guard let type, !(isLet && value != nil) else {
      self.parameter = nil
      return
    }
    let escaping = ClosureEndpoint(binding) != nil || Self.isFunctionType(binding.typeAnnotation?.type)
    let defaultValue = !isEndpoint ? value.map { " = \($0.trimmedDescription)" } ?? "" : ""
    self.parameter = "\(name): \(escaping ? "@escaping " : "")\(type)\(defaultValue)"
  }

  private static func isFunctionType(_ type: TypeSyntax?) -> Bool {
    guard let type else { return false }
    if type.is(FunctionTypeSyntax.self) { return true }
    if let attributed = type.as(AttributedTypeSyntax.self) { return isFunctionType(attributed.baseType) }
    return false
  }

  /// The type of a literal default: `var retries = 3` is an `Int`.
  private static func literalType(_ value: ExprSyntax) -> String? {
    if value.is(BooleanLiteralExprSyntax.self) { return "Swift.Bool" }
    if value.is(IntegerLiteralExprSyntax.self) { return "Swift.Int" }
    if value.is(FloatLiteralExprSyntax.self) { return "Swift.Double" }
    if value.is(StringLiteralExprSyntax.self) { return "Swift.String" }
    return nil
  }
}

extension VariableDeclSyntax {
  var isStatic: Bool {
    modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
  }
}
