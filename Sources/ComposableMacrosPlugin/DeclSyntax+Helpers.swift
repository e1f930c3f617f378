import SwiftSyntax
import SwiftSyntaxMacros

extension DeclGroupSyntax {
  /// The modifier that gives generated members the declaration's own access level:
  /// `"public "`, `"package "`, `"fileprivate "` (for a type that is private or fileprivate,
  /// itself or by being inside such a type, whose extensions' members can be no more
  /// visible), or `""` (internal).
  func accessPrefix(in context: some MacroExpansionContext) -> String {
    let enclosing = context.lexicalContext.compactMap { $0.asProtocol(WithModifiersSyntax.self) }
    if enclosing.contains(where: \.isFilePrivate) { return "fileprivate " }
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      case .keyword(.private), .keyword(.fileprivate): return "fileprivate "
      default: continue
      }
    }
    return ""
  }

  /// Whether the declaration lists `name` (or `Swift.name`) among the types it inherits.
  func inherits(_ name: String) -> Bool {
    inheritanceClause?.inheritedTypes.contains {
      let type = $0.type.trimmedDescription
      return type == name || type == "Swift.\(name)"
    } ?? false
  }

  /// Whether the body declares the function or initializer `signature`, as in `init(from:)`.
  func declares(_ signature: String) -> Bool {
    memberBlock.members.contains { member in
      let (name, parameters): (String, FunctionParameterListSyntax)
      if let function = member.decl.as(FunctionDeclSyntax.self) {
        (name, parameters) = (function.name.text, function.signature.parameterClause.parameters)
      } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
        (name, parameters) = ("init", initializer.signature.parameterClause.parameters)
      } else {
        return false
      }
      return "\(name)(\(parameters.map { "\($0.firstName.text):" }.joined()))" == signature
    }
  }
}

extension WithModifiersSyntax {
  /// Whether the declaration is `private` or `fileprivate`.
  var isFilePrivate: Bool {
    modifiers.contains { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }
  }
}

extension AttributeListSyntax {
  /// Whether one of the attributes is `@name` (or `@Module.name`).
  func contains(named name: String) -> Bool {
    contains { $0.as(AttributeSyntax.self)?.isNamed(name) == true }
  }
}

/// `name` without the backticks that let keywords be identifiers: the name JSON uses.
func unescaped(_ name: String) -> String {
  name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
}

/// A Swift string literal whose value is `text`.
func stringLiteral(_ text: String) -> String {
  var literal = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"", "\\": literal += "\\\(scalar)"
    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
      literal += "\\u{\(String(scalar.value, radix: 16))}"
    default: literal.unicodeScalars.append(scalar)
    }
  }
  return literal + "\""
}
