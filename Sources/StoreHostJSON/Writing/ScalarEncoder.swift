import Foundation

/// An `Encoder` for values that encode one scalar through a single-value container, such as
/// enums with raw values: it makes the scalar without building a tree. A value that asks
/// for a keyed or unkeyed container stops it at its first member (``NotAScalar``), and is
/// encoded by ``TreeEncoder`` instead.
final class ScalarEncoder: Encoder {
  let codingPath: [any CodingKey] = []
  let userInfo: [CodingUserInfoKey: Any]
  fileprivate var scalar: JSONValue?

  private init(userInfo: [CodingUserInfoKey: Any]) {
    self.userInfo = userInfo
  }

  /// The scalar `value` encodes, or `nil` when it encodes a container.
  static func scalar<Value: Encodable>(_ value: Value, context: (any Sendable)?) throws -> JSONValue? {
    let encoder = ScalarEncoder(userInfo: context.map { [.jsonContext: $0] } ?? [:])
    do {
      try encoder.encode(value)
    } catch is NotAScalar {
      return nil
    }
    return encoder.scalar
  }

  fileprivate func encode<Value: Encodable>(_ value: Value) throws {
    if let special = try TreeEncoder.specialNode(value), case .value(let scalar) = special {
      self.scalar = scalar
    } else {
      try value.encode(to: self)
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(NotAScalarContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer { NotAScalarContainer<MemberKey>() }

  func singleValueContainer() -> any SingleValueEncodingContainer { ScalarContainer(encoder: self) }
}

/// Thrown to stop encoding a value that turned out not to be a scalar.
struct NotAScalar: Error {}

private struct ScalarContainer: SingleValueEncodingContainer {
  let encoder: ScalarEncoder
  var codingPath: [any CodingKey] { [] }

  private func set(_ node: EncodedNode) {
    if case .value(let value) = node { encoder.scalar = value }
  }

  mutating func encodeNil() throws { encoder.scalar = .null }
  mutating func encode(_ value: Bool) throws { encoder.scalar = .bool(value) }
  mutating func encode(_ value: String) throws { encoder.scalar = .string(value) }
  mutating func encode(_ value: Double) throws { set(try .number(value, at: [])) }
  mutating func encode(_ value: Float) throws { set(try .number(value, at: [])) }
  mutating func encode(_ value: Int) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: Int8) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: Int16) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: Int32) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: Int64) throws { encoder.scalar = .int(value) }
  mutating func encode(_ value: UInt) throws { set(.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: UInt16) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: UInt32) throws { encoder.scalar = .int(Int64(value)) }
  mutating func encode(_ value: UInt64) throws { set(.number(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value) }
}

/// The container a non-scalar value gets: its first member stops the encoding.
private struct NotAScalarContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }

  mutating func encodeNil(forKey key: Key) throws { throw NotAScalar() }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NotAScalar() }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(NotAScalarContainer<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
  mutating func superEncoder() -> any Encoder { ScalarEncoderStop() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { ScalarEncoderStop() }

  mutating func encodeNil() throws { throw NotAScalar() }
  mutating func encode<T: Encodable>(_ value: T) throws { throw NotAScalar() }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(NotAScalarContainer<NestedKey>())
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
}

/// A super encoder of a non-scalar value: anything written to it stops the encoding.
private struct ScalarEncoderStop: Encoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(NotAScalarContainer<Key>())
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer { NotAScalarContainer<MemberKey>() }
  func singleValueContainer() -> any SingleValueEncodingContainer { NotAScalarContainer<MemberKey>() }
}

extension NotAScalarContainer: SingleValueEncodingContainer {}
