/// The source of `encode(to:)` in the externally tagged form (see `ActionEncoding`).
func encodeSource(cases: [EnumCase], access: String) -> String {
  let branches = cases.map { action in
    let tag = "\"\(action.tag)\""
    let values = action.valueNames.map { "\($0) as Any" }
    let call: String
    if action.parameters.isEmpty {
      call = "ActionEncoding.encode(case: \(tag), to: encoder)"
    } else if action.isLabeled {
      let labels = action.parameters.map { "\"\(unescaped($0.label!))\"" }
      let pairs = zip(labels, values).map { "\($0): \($1)" }.joined(separator: ", ")
      call = "ActionEncoding.encode(case: \(tag), labeled: [\(pairs)], to: encoder)"
    } else if action.parameters.count == 1 {
      call = "ActionEncoding.encode(case: \(tag), payload: v0, to: encoder)"
    } else {
      let list = values.joined(separator: ", ")
      call = "ActionEncoding.encode(case: \(tag), unlabeled: [\(list)], to: encoder)"
    }
    return "  case \(action.matchingPattern):\n    try \(call)"
  }
  return """
    /// Writes `"case"` or `{"case": payload}`.
    \(access)func encode(to encoder: any Encoder) throws {
      switch self {
    \(branches.joined(separator: "\n"))
      }
    }
    """
}

/// The source of `writeJSON(to:)`: the JSON of `encode(to:)`, written in one pass (labeled
/// payloads in the order of their labels' UTF-8 bytes, as `JSONEncoding` sorts members).
func writeJSONSource(cases: [EnumCase], access: String) -> String {
  let branches = cases.map { action in
    let tag = "\"\(action.tag)\""
    let call: String
    if action.parameters.isEmpty {
      call = "ActionEncoding.write(case: \(tag), to: &writer)"
    } else if action.isLabeled {
      let pairs = zip(action.parameters.map { unescaped($0.label!) }, action.valueNames)
        .sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        .map { "\"\($0.0)\": \($0.1) as Any" }
        .joined(separator: ", ")
      call = "try ActionEncoding.write(case: \(tag), labeled: [\(pairs)], to: &writer)"
    } else if action.parameters.count == 1 {
      call = "try ActionEncoding.write(case: \(tag), payload: v0, to: &writer)"
    } else {
      let list = action.valueNames.map { "\($0) as Any" }.joined(separator: ", ")
      call = "try ActionEncoding.write(case: \(tag), unlabeled: [\(list)], to: &writer)"
    }
    return "  case \(action.matchingPattern):\n    \(call)"
  }
  return """
    /// Writes the JSON of `encode(to:)` in one pass.
    \(access)func writeJSON(to writer: inout JSONWriter) throws {
      switch self {
    \(branches.joined(separator: "\n"))
      }
    }
    """
}

/// The source of `init(from:)` in the externally tagged form (see `ActionDecodingContainer`).
func decodeSource(cases: [EnumCase], access: String) -> String {
  let tags = cases.map { "\"\($0.tag)\"" }.joined(separator: ", ")
  let internalTags = cases.filter(\.isInternal).map { "\"\($0.tag)\"" }.joined(separator: ", ")
  let branches = cases.map { action in
    let body: [String]
    if action.parameters.isEmpty {
      body = ["try container.decodeNoPayload()", "self = .\(action.name)"]
    } else if action.isLabeled {
      let values = action.parameters.map { "payload.decode(forKey: \"\(unescaped($0.label!))\")" }
      body = [
        "let payload = try container.decodeLabeledPayload()",
        "self = try .\(action.name)\(action.arguments(values))",
      ]
    } else if action.parameters.count == 1 {
      body = ["self = try .\(action.name)(container.decodePayload())"]
    } else {
      let count = action.parameters.count
      let values = Array(repeating: "payload.decode()", count: count)
      body = [
        "var payload = try container.decodeUnlabeledPayload(count: \(count))",
        "self = try .\(action.name)\(action.arguments(values))",
      ]
    }
    return "  case \"\(action.tag)\":\n" + body.map { "    \($0)" }.joined(separator: "\n")
  }
  return """
    /// Reads `"case"` or `{"case": payload}`; clients may not send `@Internal` cases.
    \(access)init(from decoder: any Decoder) throws {
      let container = try ActionDecodingContainer(
        from: decoder, for: Self.self, cases: [\(tags)], internalCases: [\(internalTags)])
      switch container.tag {
    \(branches.joined(separator: "\n"))
      default:
        throw container.unknownCase()
      }
    }
    """
}
