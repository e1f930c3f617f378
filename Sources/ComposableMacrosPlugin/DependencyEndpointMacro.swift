import SwiftSyntax
import SwiftSyntaxMacros

/// `@DependencyEndpoint` on a closure property: the property is backed by a private `_name`
/// whose default reports the call as unimplemented (then returns the property's default,
/// `nil`, nothing, or throws), and a closure whose arguments have names gets a method with
/// those labels.
public struct DependencyEndpointMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let endpoint = try endpoint(of: declaration) else { return [] }
    // No init accessor: with one, the property's default (`= { false }`) would replace the
    // reporting closure of `_name` at initialization.
    return [
      "get { _\(raw: endpoint.name) }",
      "set { _\(raw: endpoint.name) = newValue }",
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let endpoint = try endpoint(of: declaration)
    else { return [] }
    let client = context.lexicalContext.lazy.compactMap { $0.asProtocol(NamedDeclSyntax.self)?.name.text }.first
    let qualifiedName = client.map { "\($0).\(endpoint.name)" } ?? endpoint.name
    let access = variable.modifiers.filter {
      [.keyword(.public), .keyword(.package), .keyword(.fileprivate)].contains($0.name.tokenKind)
    }.map { "\($0.name.text) " }.joined()
    var peers: [DeclSyntax] = []
    let methodName = methodName(node) ?? (endpoint.hasLabels ? endpoint.name : nil)
    if let methodName {
      let parameters = endpoint.arguments.enumerated().map { index, argument in
        "\(argument.label ?? "_") p\(index): \(argument.type)"
      }.joined(separator: ", ")
      let arguments = endpoint.arguments.enumerated().map { index, argument in
        (argument.isInout ? "&" : "") + "p\(index)"
      }.joined(separator: ", ")
      peers.append(
        """
        \(raw: endpoint.isMainActor ? "@MainActor " : "")\(raw: access)func \(raw: methodName)(\(raw: parameters)) \
        \(raw: endpoint.declaredEffects)-> \(raw: endpoint.result) {
          \(raw: endpoint.callEffects)self.\(raw: endpoint.name)(\(raw: arguments))
        }
        """)
    }
    let report = "DependenciesMacros._reportUnimplemented(\(literal(qualifiedName)))"
    let implementation: String
    if let closure = endpoint.defaultClosure {
      implementation = reporting(closure, report: report)
    } else if let expression = endpoint.defaultExpression {
      implementation = expression.trimmedDescription
    } else if endpoint.isThrowing {
      implementation = """
        { \(endpoint.ignoredArguments)
          \(report)
          throw DependenciesMacros.Unimplemented(\(literal(qualifiedName)))
        }
        """
    } else if endpoint.returnsVoid || endpoint.returnsOptional {
      implementation = """
        { \(endpoint.ignoredArguments)
          \(report)\(endpoint.returnsVoid ? "" : "\n  return nil")
        }
        """
    } else {
      throw MacroError(
        "a non-throwing endpoint needs a default value to return when it is unimplemented: "
          + "var \(endpoint.name): \(endpoint.type) = { \(endpoint.ignoredArguments) <default> }")
    }
    peers.append("private var _\(raw: endpoint.name): \(raw: endpoint.type) = \(raw: implementation)")
    return peers
  }

  private static func endpoint(of declaration: some DeclSyntaxProtocol) throws -> ClosureEndpoint? {
    guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
      let binding = variable.bindings.first
    else {
      throw MacroError("@DependencyEndpoint applies to one closure property: var fetch: @Sendable () async throws -> Value")
    }
    guard let endpoint = ClosureEndpoint(binding) else {
      throw MacroError("@DependencyEndpoint applies to a stored property of a closure type")
    }
    return endpoint
  }

  /// The name given by `@DependencyEndpoint(method: "name")`, if any.
  private static func methodName(_ node: AttributeSyntax) -> String? {
    guard case .argumentList(let arguments) = node.arguments,
      let method = arguments.first(where: { $0.label?.text == "method" }),
      let literal = method.expression.as(StringLiteralExprSyntax.self),
      let name = literal.representedLiteralValue, !name.isEmpty
    else { return nil }
    return name
  }

  /// The default closure with the report as its first statement; a single expression
  /// becomes the value it returns.
  private static func reporting(_ closure: ClosureExprSyntax, report: String) -> String {
    let signature = closure.signature.map { " \($0.trimmedDescription)" } ?? ""
    var statements = closure.statements.map(\.trimmedDescription)
    if closure.statements.count == 1, let only = closure.statements.first, only.item.is(ExprSyntax.self) {
      statements = ["return \(only.item.trimmedDescription)"]
    }
    return "{\(signature)\n  \(report)\n" + statements.map { "  \($0)" }.joined(separator: "\n") + "\n}"
  }

  private static func literal(_ text: String) -> String { "\"\(text)\"" }
}
