/// A binding action is `{"field": value}`, for fields declared in ``BindableFields``.
extension BindingAction: Encodable where Root: BindableFields {
  public func encode(to encoder: any Encoder) throws {
    guard let field = Root.bindableFields.first(where: { $0.keyPath == keyPath }) else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: "\(keyPath) is not a bindable field of \(typeName(Root.self))"))
    }
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    try container.encode(encodableOpaque(value), forKey: ActionCodingKey(field.name))
  }
}

extension BindingAction: Decodable where Root: BindableFields {
  public init(from decoder: any Decoder) throws {
    let fields = Root.bindableFields
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
    guard let field = fields.first(where: { $0.name == name }) else {
      throw ActionDecodingError(
        .nonBindableField, at: decoder.codingPath,
        "'\(name)' is not a bindable field of \(typeName(Root.self)); bindable fields: \(bindable)")
    }
    self = try field.decode(container)
  }
}
