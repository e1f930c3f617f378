/// A coded property as ``StoreHostJSON/JSONWriter`` writes it: its JSON name and the
/// storage written.
struct WrittenProperty {
  let jsonName: String
  let storage: String

  /// The name as a Swift literal: the bytes `JSONWriter.key(_:)` writes between quotes.
  var keyLiteral: String { stringLiteral(jsonName) }

  /// Whether JSON writes the name as it is: no quote, backslash or control character.
  var needsNoEscape: Bool {
    !jsonName.unicodeScalars.contains { $0.value < 0x20 || $0 == "\"" || $0 == "\\" }
  }

  /// Whether a JSON Pointer (RFC 6901) names the member as it is, too: no `/` or `~`.
  var isPlainName: Bool { needsNoEscape && !jsonName.contains("/") && !jsonName.contains("~") }

  /// `properties` in the order `JSONWriter` writes object members: by their names' UTF-8.
  static func sorted(_ properties: [CodedProperty]) -> [WrittenProperty] {
    properties.compactMap { coded in
      coded.jsonName.map { WrittenProperty(jsonName: $0, storage: coded.property.storage) }
    }
    .sorted { $0.jsonName.utf8.lexicographicallyPrecedes($1.jsonName.utf8) }
  }
}

/// `writeJSON(to:)` writing `properties` as synthesized `Codable` would encode them; their
/// names must need no escape (``WrittenProperty/needsNoEscape``).
func writeJSONSource(_ properties: [WrittenProperty], access: String) -> String {
  let fields = properties.map { "  try writer.field(\($0.keyLiteral), self.\($0.storage))" }
  return """
    /// Writes the JSON of `encode(to:)` in one pass, members in name order.
    \(access)func writeJSON(to writer: inout JSONWriter) throws {
      writer.beginObject()
    \(fields.joined(separator: "\n"))
      writer.endObject()
    }
    """
}

/// `writeJSONPatch(from:to:into:)` diffing `properties` one by one; their names must be
/// plain (``WrittenProperty/isPlainName``), as patch paths use them as they are.
func writeJSONPatchSource(_ properties: [WrittenProperty], access: String) -> String {
  let fields = properties.map { "  try patch.field(\($0.keyLiteral), old.\($0.storage), new.\($0.storage))" }
  return """
    /// Diffs the members: equal ones are skipped, changed ones diffed or replaced.
    \(access)static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
      patch.beginObject()
    \(fields.joined(separator: "\n"))
      patch.endObject()
    }
    """
}
