/// The source of `encode(to:)` in the externally tagged form (see `ActionEncoding`).
func encodeSource(cases: [EnumCase], access: String) -> String {
  let branches = cases.map { action in
    "  case \(action.matchingPattern):\n    try \(taggedCall(action, function: "encode", to: "encoder", sortsLabels: false))"
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
    // Only a case without a payload is written without a throwing call.
    let call = taggedCall(action, function: "write", to: "&writer", sortsLabels: true)
    return "  case \(action.matchingPattern):\n    \(action.parameters.isEmpty ? "" : "try ")\(call)"
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

/// The call of `ActionEncoding.<function>` that writes one case, tagged, with the payload
/// shape it has (none, labeled, a single value, unlabeled values), to `destination`.
private func taggedCall(_ action: EnumCase, function: String, to destination: String, sortsLabels: Bool) -> String {
  let values = action.valueNames.map { "\($0) as Any" }
  let payload: String
  if action.parameters.isEmpty {
    payload = ""
  } else if action.isLabeled {
    var pairs = Array(zip(action.parameters.map { unescaped($0.label!) }, values))
    if sortsLabels { pairs.sort { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) } }
    payload = ", labeled: [" + pairs.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "]"
  } else if action.parameters.count == 1 {
    payload = ", payload: v0"
  } else {
    payload = ", unlabeled: [" + values.joined(separator: ", ") + "]"
  }
  return "ActionEncoding.\(function)(case: \"\(action.tag)\"\(payload), to: \(destination))"
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
