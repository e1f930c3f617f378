import SwiftSyntax

/// The `CodingKeys` enum a struct declares in its body: which properties are coded, and
/// under which JSON names.
struct DeclaredCodingKeys {
  /// The JSON name of each coded property by its case name (backticks dropped), or `nil`
  /// when the names cannot be read from the declaration (a `CodingKeys` that computes its
  /// `stringValue`, say): then only code that uses the keys themselves is generated.
  let jsonNames: [String: String]?
  /// The case names, in order.
  let caseNames: [String]

  /// The `CodingKeys` declared in `declaration`'s body, if any.
  init?(in declaration: some DeclGroupSyntax) {
    let nested = declaration.memberBlock.members.lazy.compactMap { $0.decl.as(EnumDeclSyntax.self) }
    guard let keys = nested.first(where: { $0.name.text == "CodingKeys" }) else { return nil }
    let hasStringRawValues = keys.inherits("String")
    var names: [String: String]? = [:]
    var caseNames: [String] = []
    for member in keys.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else {
        names = nil
        continue
      }
      for element in caseDecl.elements {
        let name = unescaped(element.name.text)
        caseNames.append(name)
        guard element.parameterClause == nil else {
          names = nil
          continue
        }
        if let rawValue = element.rawValue?.value {
          guard hasStringRawValues, let string = rawValue.as(StringLiteralExprSyntax.self)?.representedLiteralValue
          else {
            // An integer raw value leaves the JSON name alone.
            if !hasStringRawValues { names?[name] = name } else { names = nil }
            continue
          }
          names?[name] = string
        } else {
          names?[name] = name
        }
      }
    }
    self.jsonNames = names
    self.caseNames = caseNames
  }
}
