/// The source of a `CasePathable` conformance: `AllCasePaths` with one property per case,
/// and `allCasePaths`.
func casePathsSource(root: String, cases: [EnumCase], access: String) -> String {
  let properties = cases.map { casePath in
    """
      \(access)var \(casePath.name): AnyCasePath<\(root), \(casePath.payloadType)> {
        AnyCasePath(
          generatedEmbed: { \(embed(casePath, root: root)) },
          extract: {
            if case \(casePath.matchingPattern) = $0 { \(extracted(casePath)) } else { nil }
          }
        )
      }
    """
  }
  return """
    /// The case paths of each case, named like the cases.
    \(access)struct AllCasePaths: Sendable {
    \(properties.joined(separator: "\n"))
    }

    /// The case paths of each case: `\\.\(cases.first?.name ?? "case")` names one.
    \(access)static var allCasePaths: AllCasePaths { AllCasePaths() }

    /// The payload type of each case.
    \(access)static var _$casePayloadTypes: [Any.Type]? {
      [\(cases.map { "allCasePaths.\($0.name)._valueType" }.joined(separator: ", "))]
    }
    """
}

/// A closure body building the case from its payload `$0`.
private func embed(_ casePath: EnumCase, root: String) -> String {
  let values: [String] =
    switch casePath.parameters.count {
    case 0: []
    case 1: ["$0"]
    default: casePath.parameters.indices.map { "$0.\($0)" }
    }
  let call = "\(root).\(casePath.name)" + (values.isEmpty ? "" : casePath.arguments(values))
  return values.isEmpty ? "_ in \(call)" : call
}

/// The payload an extract closure returns from the bound values.
private func extracted(_ casePath: EnumCase) -> String {
  switch casePath.parameters.count {
  case 0: "()"
  case 1: "v0"
  default: "(" + casePath.valueNames.joined(separator: ", ") + ")"
  }
}
