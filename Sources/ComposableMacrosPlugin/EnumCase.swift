import SwiftSyntax

/// One case of an enum, as the generated case paths and coding see it.
struct EnumCase {
  /// One associated value.
  struct Parameter {
    /// The label, or `nil` for an unlabeled value.
    let label: String?
    let type: String
    /// The default value as written (`Feature(context: "x")`), if any.
    var defaultValue: String? = nil
  }

  /// The name as written, backticks included.
  let name: String
  let parameters: [Parameter]
  /// Marked `@Internal`: clients may not send it.
  let isInternal: Bool

  /// The name in JSON.
  var tag: String { unescaped(name) }

  /// Whether the payload is written as an object of labeled values (every value labeled).
  var isLabeled: Bool { !parameters.isEmpty && parameters.allSatisfy { $0.label != nil } }

  /// The type of the case's payload: `Void`, the single value's type, or a tuple.
  var payloadType: String {
    switch parameters.count {
    case 0: "Void"
    case 1: parameters[0].type
    default: "(" + parameters.map { labeled($0.label, $0.type) }.joined(separator: ", ") + ")"
    }
  }

  /// A pattern matching the case and binding every value to `v0`, `v1`, ...:
  /// `.move`, `let .move(v0, v1)`.
  var matchingPattern: String {
    parameters.isEmpty ? ".\(name)" : "let .\(name)(\(valueNames.joined(separator: ", ")))"
  }

  /// `v0`, `v1`, ...: the names the patterns bind the values to.
  var valueNames: [String] { parameters.indices.map { "v\($0)" } }

  /// The arguments of a call to the case, from `values`: `(x: a, b)`.
  func arguments(_ values: [String]) -> String {
    "(" + zip(parameters, values).map { labeled($0.label, $1) }.joined(separator: ", ") + ")"
  }

  /// `label: text`, or `text` without a label.
  private func labeled(_ label: String?, _ text: String) -> String {
    label.map { "\($0): \(text)" } ?? text
  }

  /// The cases of `declaration`, in order.
  static func all(of declaration: EnumDeclSyntax) -> [EnumCase] {
    declaration.memberBlock.members.flatMap { member -> [EnumCase] in
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
      let isInternal = caseDecl.attributes.contains(named: "Internal")
      return caseDecl.elements.map { element in
        EnumCase(
          name: element.name.text,
          parameters: element.parameterClause?.parameters.map { parameter in
            let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
            return Parameter(
              label: label, type: parameter.type.trimmedDescription,
              defaultValue: parameter.defaultValue?.value.trimmedDescription)
          } ?? [],
          isInternal: isInternal)
      }
    }
  }
}
