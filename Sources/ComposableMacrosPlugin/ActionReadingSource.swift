/// The source of `readJSON(from:)` (see `JSONReadableAction`): the cases clients may send,
/// read straight from the bytes; anything else gives up to `init(from:)`.
func readJSONSource(cases: [EnumCase], access: String) -> String {
  let branches = cases.filter { !$0.isInternal }.map { action in
    let body: [String]
    if action.parameters.isEmpty {
      body = ["try reader.readNoPayload(tag)", "return .\(action.name)"]
    } else if action.parameters.count == 1 && !action.isLabeled {
      body = ["return .\(action.name)(try reader.readPayload(tag))"]
    } else {
      body = ["return try reader.readCase(tag, as: Self.self)"]
    }
    return "  case \"\(action.tag)\":\n" + body.map { "    \($0)" }.joined(separator: "\n")
  }
  return """
    /// Reads `"case"` or `{"case": payload}` straight from a client's JSON; gives up on
    /// anything else, `@Internal` cases included, for `init(from:)` to decide.
    \(access)static func readJSON(from reader: inout ActionReader) throws(ActionReader.Mismatch) -> Self {
      let tag = try reader.readCase()
      switch tag.name {
    \(branches.joined(separator: "\n"))
      default:
        throw ActionReader.Mismatch()
      }
    }
    """
}
