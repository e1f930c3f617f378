import SwiftSyntax

/// A stored closure property of a dependency client, as `@DependencyEndpoint` reads it:
/// `var forecast: @Sendable (_ location: Location) async throws -> Forecast`.
struct ClosureEndpoint {
  /// One argument of the closure's type.
  struct Argument {
    /// The name written after `_`, as in `_ location: Location`; `nil` when unnamed.
    let label: String?
    /// The type as written, `inout` included.
    let type: String

    var isInout: Bool { type.hasPrefix("inout ") }
  }

  let name: String
  /// The closure's type as written: `@Sendable (_ location: Location) async throws -> Forecast`.
  let type: String
  let arguments: [Argument]
  let isAsync: Bool
  let isThrowing: Bool
  let isMainActor: Bool
  /// The result type as written: `Forecast`, `Void`, `Int?`.
  let result: String
  /// The closure the property is initialized with, if any.
  let defaultClosure: ClosureExprSyntax?
  /// A default that is not a closure literal: `= unimplemented("...")`, `= Self.live`.
  let defaultExpression: ExprSyntax?

  /// Reads `binding` when its type is a closure's; `nil` for any other property.
  init?(_ binding: PatternBindingSyntax) {
    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let annotation = binding.typeAnnotation?.type,
      binding.accessorBlock == nil,
      let (function, attributes) = Self.functionType(annotation)
    else { return nil }
    self.name = name
    self.type = annotation.trimmedDescription
    self.arguments = function.parameters.map { element in
      let label = element.secondName.map(\.text) ?? element.firstName.flatMap { $0.text == "_" ? nil : $0.text }
      return Argument(label: label, type: element.type.trimmedDescription)
    }
    self.isAsync = function.effectSpecifiers?.asyncSpecifier != nil
    self.isThrowing = function.effectSpecifiers?.throwsClause != nil
    self.isMainActor = attributes.contains { $0.trimmedDescription == "@MainActor" }
    self.result = function.returnClause.type.trimmedDescription
    let value = binding.initializer?.value
    self.defaultClosure = value?.as(ClosureExprSyntax.self)
    self.defaultExpression = defaultClosure == nil ? value : nil
  }

  /// The function type inside `type`, past attributes (`@Sendable`) and parentheses, with the
  /// attributes met on the way.
  private static func functionType(_ type: TypeSyntax) -> (FunctionTypeSyntax, [AttributeListSyntax.Element])? {
    if let function = type.as(FunctionTypeSyntax.self) { return (function, []) }
    if let attributed = type.as(AttributedTypeSyntax.self),
      let (function, inner) = functionType(attributed.baseType)
    {
      return (function, Array(attributed.attributes) + inner)
    }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.firstName == nil
    {
      return functionType(only.type)
    }
    return nil
  }

  /// Whether any argument has a name, so a labeled method can call the closure.
  var hasLabels: Bool { arguments.contains { $0.label != nil } }

  var returnsVoid: Bool { ["Void", "()", "Swift.Void"].contains(result) }

  var returnsOptional: Bool {
    result.hasSuffix("?") || result.hasPrefix("Optional<") || result.hasPrefix("Swift.Optional<")
  }

  /// `try await ` as the closure's effects ask.
  var callEffects: String { (isThrowing ? "try " : "") + (isAsync ? "await " : "") }

  /// `async throws ` as the closure's effects declare them.
  var declaredEffects: String { (isAsync ? "async " : "") + (isThrowing ? "throws " : "") }

  /// `_, _ in ` for a closure literal of this many arguments (nothing for none).
  var ignoredArguments: String {
    arguments.isEmpty ? "" : Array(repeating: "_", count: arguments.count).joined(separator: ", ") + " in"
  }
}
