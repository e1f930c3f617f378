/// A state that names the fields clients may set with a ``BindingAction``, as in
/// `{"binding": {"title": "Milk"}}`. Decoding a binding for any other field fails.
///
/// `@ObservableState` writes the conformance from the fields marked `@BindingState`; by hand:
///
/// ```swift
/// extension Todo.State: BindableFields {
///   static var bindableFields: [BindableField<Self>] {
///     [BindableField("title", \.title), BindableField("isComplete", \.isComplete)]
///   }
/// }
/// ```
public protocol BindableFields {
  /// The fields clients may set, each with its JSON name.
  static var bindableFields: [BindableField<Self>] { get }
}

/// A field of `Root` that a ``BindingAction`` may set: its name and key path.
public struct BindableField<Root>: Sendable {
  /// The field's name in JSON.
  public let name: String
  /// The field.
  public let keyPath: PartialKeyPath<Root> & Sendable
  /// The binding action setting this field to the value under its name in a container.
  let decode: @Sendable (KeyedDecodingContainer<ActionCodingKey>) throws -> BindingAction<Root>
  /// The binding action setting this field to the value a reader is at, after the field's
  /// name (``ActionReader``'s fast path).
  let read: @Sendable (inout ActionReader, ActionReader.Tag) throws(ActionReader.Mismatch) -> BindingAction<Root>
  /// The field's type, for its schema.
  let valueType: Any.Type

  /// The field `keyPath`, named `name`. Its value type needs to be `Decodable` for clients
  /// to set it; otherwise decoding a binding for it fails.
  public init<Value: Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value> & Sendable
  ) {
    self.name = name
    self.keyPath = keyPath
    self.valueType = Value.self
    self.decode = { container in
      let key = ActionCodingKey(name)
      let value = try decodeOpaque(Value.self, at: container.codingPath + [key]) {
        try container.decode($0, forKey: key)
      }
      return .set(keyPath, value)
    }
    self.read = { reader, tag throws(ActionReader.Mismatch) in
      guard let value = try reader.readDecodedPayload(tag, as: Value.self) as? Value else {
        throw ActionReader.Mismatch()
      }
      return .set(keyPath, value)
    }
  }
}

/// A state's bindable fields by name and by key path, made once per type: a history
/// names the field of every binding it records, and a client's bindings are read by name.
struct BindableFieldIndex<Root: BindableFields>: @unchecked Sendable {  // key paths are immutable
  /// The fields, in the order `Root` declares them.
  let fields: [BindableField<Root>]
  private let byName: [String: Int]
  private let byKeyPath: [AnyKeyPath: Int]

  private init() {
    let fields = Root.bindableFields
    self.fields = fields
    // The first of fields declared twice counts, as a search of the list would find it.
    byName = Dictionary(fields.indices.map { (fields[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
    byKeyPath = Dictionary(fields.indices.map { (fields[$0].keyPath as AnyKeyPath, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The index of `Root`'s fields.
  static var shared: Self { MadeOncePerType.value { Self() } }

  /// The field named `name` in JSON.
  func field(named name: String) -> BindableField<Root>? { byName[name].map { fields[$0] } }

  /// The field `keyPath` points to.
  func field(at keyPath: AnyKeyPath) -> BindableField<Root>? { byKeyPath[keyPath].map { fields[$0] } }
}
