import Foundation
import StoreHostJSON

/// A `Decoder` that decodes nothing: it records in its ``Shape`` what is asked of it and
/// answers with placeholders, for ``SchemaProbe``.
struct ProbeDecoder: Decoder {
  let probe: SchemaProbe
  let shape: Shape
  /// The case an action initializer is to take; `nil` for the first one.
  let actionCase: String?
  let codingPath: [any CodingKey]
  /// Making a placeholder, not recording: collections are empty.
  var isPlaceholder = false
  var userInfo: [CodingUserInfoKey: Any] {
    probe.clientsOnly ? [.actionDecodingPolicy: ActionDecodingPolicy.client] : [:]
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self, acceptsNoPayload: false))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    if shape.items == nil { shape.items = [] }
    return ProbeUnkeyedContainer(decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ProbeSingleValueContainer(decoder: self)
  }

  /// The case an action initializer takes, having recorded the cases clients may send.
  func actionTag(cases: [String], internalCases: Set<String>) -> String {
    let sendable = probe.clientsOnly ? cases.filter { !internalCases.contains($0) } : cases
    shape.actionCases = sendable
    return actionCase ?? sendable.first ?? cases.first ?? ""
  }

  /// The container an action's payload is read from, under the key of its case.
  func actionPayload() -> KeyedDecodingContainer<ActionCodingKey> {
    KeyedDecodingContainer(ProbeKeyedContainer<ActionCodingKey>(decoder: self, acceptsNoPayload: true))
  }

  /// A decoder whose answers go into `shape`, one level down at `key`.
  func child(_ shape: Shape, at key: (any CodingKey)?) -> ProbeDecoder {
    ProbeDecoder(
      probe: probe, shape: shape, actionCase: nil, codingPath: codingPath + (key.map { [$0] } ?? []),
      isPlaceholder: isPlaceholder)
  }

  /// Records `type` in `record` and returns a placeholder of it.
  func value<T: Decodable>(_ type: T.Type, _ record: (Shape.Value) -> Void) throws -> T {
    if let optional = type as? any OptionalDecodable.Type {
      record(.schema(["anyOf": [probe.schema(of: optional.wrappedDecodable), ["type": "null"]]]))
      return optional.none as! T
    }
    record(.schema(probe.schema(of: type)))
    return try probe.placeholder(type)
  }
}

/// `Optional` as seen by the probe, which records its wrapped type and answers `nil`.
protocol OptionalDecodable {
  static var wrappedDecodable: any Decodable.Type { get }
  static var none: Self { get }
}

extension Optional: OptionalDecodable where Wrapped: Decodable {
  static var wrappedDecodable: any Decodable.Type { Wrapped.self }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ProbeDecoder
  /// An action's payload container: `decodeNil` answers "no payload".
  let acceptsNoPayload: Bool
  var codingPath: [any CodingKey] { decoder.codingPath }

  /// A dictionary asks for its keys: it gets one, whose value schema becomes the values'.
  var allKeys: [Key] {
    guard !decoder.isPlaceholder else { return [] }
    decoder.shape.isDictionary = true
    return Key(stringValue: "key").map { [$0] } ?? []
  }

  func contains(_ key: Key) -> Bool { true }
  func decodeNil(forKey key: Key) throws -> Bool { acceptsNoPayload }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let isOptional = type is any OptionalDecodable.Type
    return try decoder.value(type) { decoder.shape.add(key.stringValue, $0, isRequired: !isOptional) }
  }

  // The primitives, like any other value.
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, forKey: key, generic: ()) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, forKey: key, generic: ()) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, forKey: key, generic: ()) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, forKey: key, generic: ()) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, forKey: key, generic: ()) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, forKey: key, generic: ()) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, forKey: key, generic: ()) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, forKey: key, generic: ()) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, forKey: key, generic: ()) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, forKey: key, generic: ()) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, forKey: key, generic: ()) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, forKey: key, generic: ()) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, forKey: key, generic: ()) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, forKey: key, generic: ()) }

  private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, generic: Void) throws -> T {
    try decoder.value(type) { decoder.shape.add(key.stringValue, $0) }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try decodeIfPresent(type, forKey: key, generic: ())
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type as Bool.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type as String.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type as Double.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type as Float.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type as Int.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type as Int8.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type as Int16.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type as Int32.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type as Int64.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type as UInt.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type as UInt8.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type as UInt16.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type as UInt32.Type, forKey: key, generic: ()) }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type as UInt64.Type, forKey: key, generic: ()) }

  private func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key, generic: Void) throws -> T? {
    try decoder.value(type) { decoder.shape.add(key.stringValue, $0, isRequired: false) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let shape = Shape()
    decoder.shape.add(key.stringValue, .shape(shape))
    return try decoder.child(shape, at: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let shape = Shape()
    decoder.shape.add(key.stringValue, .shape(shape))
    return try decoder.child(shape, at: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { decoder }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    let shape = Shape()
    decoder.shape.add(key.stringValue, .shape(shape))
    return decoder.child(shape, at: key)
  }
}

/// Holds one element, whose schema becomes the items' (or, for a fixed number of values
/// read one by one, each value's).
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: ProbeDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { nil }
  var currentIndex = 0
  var isAtEnd: Bool { decoder.isPlaceholder || currentIndex > 0 }

  init(decoder: ProbeDecoder) {
    self.decoder = decoder
  }

  mutating func decodeNil() throws -> Bool { false }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
  mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

  private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    currentIndex += 1
    return try decoder.value(type) { decoder.shape.items?.append($0) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    currentIndex += 1
    let shape = Shape()
    decoder.shape.items?.append(.shape(shape))
    return try decoder.child(shape, at: nil).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    currentIndex += 1
    let shape = Shape()
    decoder.shape.items?.append(.shape(shape))
    return try decoder.child(shape, at: nil).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    currentIndex += 1
    let shape = Shape()
    decoder.shape.items?.append(.shape(shape))
    return decoder.child(shape, at: nil)
  }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  let decoder: ProbeDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  /// `Optional` asks whether the value is null: it is nullable, and not null here.
  func decodeNil() -> Bool {
    decoder.shape.isNullable = true
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
  func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
  func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
  func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
  func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

  private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    try decoder.value(type) { value in
      switch value {
      case .schema(let schema): decoder.shape.single = schema
      case .shape(let shape): decoder.shape.single = shape.schema()
      }
    }
  }
}

extension ProbeDecoder {
  /// A binding's schema: one alternative per bindable field, `{"field": value}`.
  func binding<Root>(of fields: [BindableField<Root>]) throws -> BindingAction<Root> {
    var alternatives: [JSONValue] = []
    var first: BindingAction<Root>?
    for field in fields {
      let shape = Shape()
      let container = KeyedDecodingContainer(
        ProbeKeyedContainer<ActionCodingKey>(decoder: child(shape, at: nil), acceptsNoPayload: false))
      guard let action = try? field.decode(container), let value = shape.properties.first else { continue }
      first = first ?? action
      alternatives.append([
        "type": "object", "properties": [field.name: value.schema()], "required": [.string(field.name)],
        "additionalProperties": false,
      ])
    }
    shape.single = alternatives.count == 1 ? alternatives[0] : ["oneOf": .array(alternatives)]
    guard let first else { throw ActionDecodingError(.malformed, at: codingPath, "no bindable fields") }
    return first
  }
}
