// The coding of a stored property, as `@ObservableState` generates it for a `Codable`
// struct: the JSON of synthesized `Codable`, and decoding that tolerates a state saved
// before the struct gained or lost a property. Overloads pick the optional form from the
// property's static type, as synthesized `Codable` does.

extension KeyedDecodingContainer {
  /// Decodes the member `key` into `property`, or leaves `property` (its default value) as it
  /// is when the JSON has no such member: a state saved before the property was added.
  public func decodeProperty<Value: Decodable>(_ property: inout Value, forKey key: Key) throws {
    guard contains(key) else { return }
    property = try decode(Value.self, forKey: key)
  }

  /// Decodes the optional member `key` into `property`: `nil` when missing or `null`, so a
  /// value encoded as `nil` (left out) decodes as `nil` whatever the default.
  public func decodeProperty<Value: Decodable>(_ property: inout Value?, forKey key: Key) throws {
    property = try decodeIfPresent(Value.self, forKey: key)
  }

  /// Decodes the member `key` for a property without a default value (its key path gives the
  /// type): a missing member throws `DecodingError.keyNotFound`.
  public func decodeProperty<Root, Value: Decodable>(
    _ property: KeyPath<Root, Value>, forKey key: Key
  ) throws -> Value {
    try decode(Value.self, forKey: key)
  }

  /// Decodes the optional member `key` for a property without a default value: `nil` when
  /// missing or `null`.
  public func decodeProperty<Root, Value: Decodable>(
    _ property: KeyPath<Root, Value?>, forKey key: Key
  ) throws -> Value? {
    try decodeIfPresent(Value.self, forKey: key)
  }
}

extension KeyedEncodingContainer {
  /// Encodes a property under `key`.
  public mutating func encodeProperty<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    try encode(value, forKey: key)
  }

  /// Encodes an optional property under `key`, or nothing when it is `nil`.
  public mutating func encodeProperty<Value: Encodable>(_ value: Value?, forKey key: Key) throws {
    try encodeIfPresent(value, forKey: key)
  }
}
