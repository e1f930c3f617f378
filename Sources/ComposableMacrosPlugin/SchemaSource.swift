/// `jsonSchema(in:)` of a state struct: an object of its coded properties, each described
/// by the type it is declared with (the type of its key path, so an inferred type will do).
func stateSchemaSource(_ properties: [CodedProperty], access: String) -> String {
  let members = properties.compactMap { coded in
    coded.jsonName.map { name in
      "    JSONSchemaProperty(\(stringLiteral(name)), \\Self.\(coded.property.storage), hasDefault: \(coded.property.hasDefault)),"
    }
  }
  return """
    /// The JSON Schema of this state, from its declaration: no decoding runs.
    \(access)static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
      context.object([
    \(members.joined(separator: "\n"))
      ])
    }
    """
}

/// `jsonSchema(in:)` of an enum coded in the externally tagged form: one alternative per
/// case, each payload described by the type its case declares.
func enumSchemaSource(cases: [EnumCase], access: String) -> String {
  let alternatives = cases.map { enumCase in
    var arguments = [stringLiteral(enumCase.tag)]
    let types = enumCase.parameters.map { "(\($0.type)).self" }
    if enumCase.isLabeled {
      let pairs = zip(enumCase.parameters, types).map { "\(stringLiteral(unescaped($0.label!))): \($1)" }
      arguments.append("labeled: [\(pairs.joined(separator: ", "))]")
    } else if types.count == 1 {
      arguments.append("payload: \(types[0])")
    } else if !types.isEmpty {
      arguments.append("unlabeled: [\(types.joined(separator: ", "))]")
    }
    if enumCase.isInternal { arguments.append("isInternal: true") }
    return "    JSONSchemaCase(\(arguments.joined(separator: ", "))),"
  }
  return """
    /// The JSON Schema of this enum, from its cases: no decoding runs.
    \(access)static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
      context.tagged([
    \(alternatives.joined(separator: "\n"))
      ])
    }
    """
}
