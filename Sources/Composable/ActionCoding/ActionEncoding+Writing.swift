import StoreHostJSON

/// The same JSON as ``ActionEncoding``'s `encode` functions, written in one pass to a
/// `JSONWriter`: the `writeJSON(to:)` that `@CasePathable` generates next to
/// `encode(to:)` calls these, so an action is encoded without building a tree.
extension ActionEncoding {
  /// A case without payload: `"tag"`.
  public static func write(case tag: String, to writer: inout JSONWriter) {
    writer.write(tag)
  }

  /// A case with one unlabeled payload: `{"tag": payload}`.
  public static func write<Payload>(case tag: String, payload: Payload, to writer: inout JSONWriter) throws {
    writer.beginObject()
    writer.key(tag)
    try write(payload as Any, to: &writer)
    writer.endObject()
  }

  /// A case with labeled payloads, `labeled` in the order of their labels' UTF-8 bytes (as
  /// `JSONEncoding` sorts members): `{"tag": {"label": value, ...}}`.
  public static func write(
    case tag: String, labeled payload: KeyValuePairs<String, Any>, to writer: inout JSONWriter
  ) throws {
    writer.beginObject()
    writer.key(tag)
    writer.beginObject()
    for (label, value) in payload {
      writer.key(label)
      try write(value, to: &writer)
    }
    writer.endObject()
    writer.endObject()
  }

  /// A case with several unlabeled payloads: `{"tag": [first, second, ...]}`.
  public static func write(case tag: String, unlabeled payload: [Any], to writer: inout JSONWriter) throws {
    writer.beginObject()
    writer.key(tag)
    writer.beginArray()
    for value in payload { try write(value, to: &writer) }
    writer.endArray()
    writer.endObject()
  }

  /// One payload: through its own writer, its `Encodable` conformance, or as its description.
  private static func write(_ value: Any, to writer: inout JSONWriter) throws {
    if let writable = value as? any JSONWritable {
      try writable.writeJSON(to: &writer)
    } else {
      try writer.write(encodableOpaque(value))
    }
  }
}
