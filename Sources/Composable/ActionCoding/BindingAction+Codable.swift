import StoreHostJSON

/// A binding action is `{"field": value}`, for fields declared in ``BindableFields``.
extension BindingAction: Encodable where Root: BindableFields {
  public func encode(to encoder: any Encoder) throws {
    let name = try fieldName(codingPath: encoder.codingPath)
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    try container.encode(encodableOpaque(value), forKey: ActionCodingKey(name))
  }

  /// The JSON name of the field this action sets.
  /// - Throws: `EncodingError.invalidValue` when it is not one of `Root`'s bindable fields.
  private func fieldName(codingPath: [any CodingKey]) throws -> String {
    guard let field = BindableFieldIndex<Root>.shared.field(at: keyPath) else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: codingPath,
          debugDescription: "\(keyPath) is not a bindable field of \(typeName(Root.self))"))
    }
    return field.name
  }
}

/// The same JSON as `encode(to:)`, in one pass: a history records every binding a client
/// sends, so a form's typing is written without building a tree.
extension BindingAction: JSONWritable where Root: BindableFields {
  public func writeJSON(to writer: inout JSONWriter) throws {
    let name = try fieldName(codingPath: [])
    writer.beginObject()
    writer.key(name)
    if let writable = value as? any JSONWritable {
      try writable.writeJSON(to: &writer)
    } else {
      try writer.write(encodableOpaque(value))
    }
    writer.endObject()
  }
}

extension BindingAction: Decodable where Root: BindableFields {
  public init(from decoder: any Decoder) throws {
    let index = BindableFieldIndex<Root>.shared
    let fields = index.fields
    var bindable: String {
      fields.isEmpty ? "it has none" : fields.map(\.name).joined(separator: ", ")
    }
    let container: KeyedDecodingContainer<ActionCodingKey>
    do {
      container = try decoder.container(keyedBy: ActionCodingKey.self)
    } catch {
      throw ActionDecodingError(
        .malformed, at: decoder.codingPath,
        "a binding is an object with one key, a bindable field of \(typeName(Root.self))"
          + " (\(bindable))")
    }
    guard container.allKeys.count == 1, let name = container.allKeys.first?.stringValue else {
      throw ActionDecodingError(
        .malformed, at: decoder.codingPath,
        "a binding sets exactly one field of \(typeName(Root.self)),"
          + " but found \(container.allKeys.count)")
    }
    guard let field = index.field(named: name) else {
      throw ActionDecodingError(
        .nonBindableField, at: decoder.codingPath,
        "'\(name)' is not a bindable field of \(typeName(Root.self)); bindable fields: \(bindable)")
    }
    self = try field.decode(container)
  }
}

/// Reads `{"field": value}` straight from a client's bytes; anything else (an undeclared
/// field, several) is left to `init(from:)`, whose error stands.
extension BindingAction: JSONReadableAction where Root: BindableFields {
  public static func readJSON(from reader: inout ActionReader) throws(ActionReader.Mismatch) -> Self {
    let tag = try reader.readCase()
    guard let field = BindableFieldIndex<Root>.shared.field(named: tag.name) else { throw ActionReader.Mismatch() }
    return try field.read(&reader, tag)
  }
}
