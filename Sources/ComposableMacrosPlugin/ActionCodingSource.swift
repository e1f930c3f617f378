/// The source of `encode(to:)` in the externally tagged form (see `ActionEncoding`).
func encodeSource(cases: [EnumCase], access: String) -> String {
  let branches = cases.map { action in
    let call: String
    switch action.parameters.count {
    case 0:
      call = "ActionEncoding.encode(case: \"\(action.tag)\", to: encoder)"
    case 1 where !action.isLabeled:
      call = "ActionEncoding.encode(case: \"\(action.tag)\", payload: v0, to: encoder)"
    case _ where action.isLabeled:
      let pairs = zip(action.parameters, action.valueNames).map { "\"\(unescaped($0.label!))\": \($1) as Any" }
      call = "ActionEncoding.encode(case: \"\(action.tag)\", labeled: [\(pairs.joined(separator: ", "))], to: encoder)"
    default:
      call = "ActionEncoding.encode(case: \"\(action.tag)\", unlabeled: [\(action.valueNames.map { "\($0) as Any" }.joined(separator: ", "))], to: encoder)"
    }
    let pattern = action.parameters.isEmpty ? ".\(action.name)" : "let .\(action.name)\(action.bindingPattern)"
    return "  case \(pattern):\n    try \(call)"
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

/// The source of `init(from:)` in the externally tagged form (see `ActionDecodingContainer`).
func decodeSource(cases: [EnumCase], access: String) -> String {
  let tags = cases.map { "\"\($0.tag)\"" }.joined(separator: ", ")
  let internalTags = cases.filter(\.isInternal).map { "\"\($0.tag)\"" }.joined(separator: ", ")
  let branches = cases.map { action in
    let body: String
    switch action.parameters.count {
    case 0:
      body = "try container.decodeNoPayload()\n    self = .\(action.name)"
    case 1 where !action.isLabeled:
      body = "self = try .\(action.name)(container.decodePayload())"
    case _ where action.isLabeled:
      let values = action.parameters.map { "payload.decode(forKey: \"\(unescaped($0.label!))\")" }
      body = "let payload = try container.decodeLabeledPayload()\n    self = try .\(action.name)\(action.arguments(values))"
    default:
      let values = action.parameters.map { _ in "payload.decode()" }
      body = "var payload = try container.decodeUnlabeledPayload(count: \(action.parameters.count))\n    self = try .\(action.name)\(action.arguments(values))"
    }
    return "  case \"\(action.tag)\":\n    \(body)"
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
