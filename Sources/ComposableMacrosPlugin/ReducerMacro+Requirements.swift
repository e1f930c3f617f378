import SwiftSyntax
import SwiftSyntaxMacros

/// What `@Reducer` writes into a struct that leaves requirements out, as TCA's macro does:
/// `@Reducer struct Feature {}` gets an empty `State`, an `Action` with no cases and an
/// `EmptyReducer` body. A `State` or `Action` is written only when the struct's `body` (or
/// `reduce(into:action:)`) does not name its own, as `let body = EmptyReducer<Int, Int>()` does.
func missingReducerRequirements(
  of structDecl: StructDeclSyntax, in context: some MacroExpansionContext
) -> [DeclSyntax] {
  let members = structDecl.memberBlock.members.map(\.decl)
  let typeNames = Set(members.compactMap { $0.asProtocol(NamedDeclSyntax.self)?.name.text })
  let bodies = members.compactMap { $0.as(VariableDeclSyntax.self) }.flatMap(\.bindings)
    .filter { $0.pattern.trimmedDescription == "body" }
  let hasReduceMethod = members.contains {
    guard let function = $0.as(FunctionDeclSyntax.self), function.name.text == "reduce" else { return false }
    return function.signature.parameterClause.parameters.map(\.firstName.text) == ["into", "action"]
  }
  let bodyNamesItsTypes =
    hasReduceMethod
    || bodies.contains { body in
      guard body.initializer == nil else { return true }
      let constraint = body.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?.constraint
      let name = constraint?.as(IdentifierTypeSyntax.self)?.name.text
      return name == "Reducer" || name == "ReducerOf"
    }
  let access = structDecl.accessPrefix(in: context)
  var declarations: [DeclSyntax] = []
  if !bodyNamesItsTypes && !typeNames.contains("State") {
    declarations.append(
      """
      \(raw: access)struct State: Codable, Equatable, Hashable, Sendable {
        \(raw: access)init() {}
      }
      """)
  }
  if !bodyNamesItsTypes && !typeNames.contains("Action") {
    declarations.append("@CasePathable \(raw: access)enum Action: Equatable, Hashable, Sendable {}")
  }
  if bodies.isEmpty && !hasReduceMethod {
    declarations.append("\(raw: access)let body = EmptyReducer<State, Action>()")
  }
  return declarations
}
