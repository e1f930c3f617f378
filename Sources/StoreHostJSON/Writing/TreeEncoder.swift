import Foundation

/// An `Encoder` that builds the JSON of any `Encodable` value as a tree, with the semantics
/// of Foundation's `JSONEncoder` (default strategies) and the number and member order of
/// ``JSONWriter``. It serves values without a ``JSONWritable`` conformance.
final class TreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  /// What this encoder's value became; `nil` until something is encoded.
  private(set) var node: EncodedNode?

  init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: EncodedObject
    if case .object(let existing) = node {
      object = existing
    } else {
      object = EncodedObject()
      node = .object(object)
    }
    return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, object: object))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: EncodedArray
    if case .array(let existing) = node {
      array = existing
    } else {
      array = EncodedArray()
      node = .array(array)
    }
    return TreeUnkeyedContainer(encoder: self, array: array)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    TreeSingleValueContainer(encoder: self)
  }

  /// The node for `value` encoded at `path`: a scalar for the types `JSONEncoder` treats
  /// specially, else whatever the value's `encode(to:)` makes (`{}` when it makes nothing).
  func encodedNode<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws -> EncodedNode {
    if let special = try Self.specialNode(value) { return special }
    let child = TreeEncoder(codingPath: path, userInfo: userInfo)
    try value.encode(to: child)
    return child.node ?? .object(EncodedObject())
  }

  /// `JSONEncoder`'s special cases: data as Base64, URLs as their absolute string,
  /// decimals as numbers; dates use their own conformance (seconds since 2001).
  static func specialNode(_ value: some Encodable) throws -> EncodedNode? {
    switch value {
    case let data as Data: .value(.string(data.base64EncodedString()))
    case let url as URL: .value(.string(url.absoluteString))
    case let decimal as Decimal: .value(try JSONValue(numberText: decimal.description))
    default: nil
    }
  }

  /// Makes `node` this encoder's value.
  func setNode(_ node: EncodedNode) { self.node = node }

  /// The JSON bytes of what was encoded.
  func bytes(context: (any Sendable)?) -> [UInt8] {
    var writer = JSONWriter(context: context)
    (node ?? .object(EncodedObject())).write(to: &writer)
    return writer.bytes
  }
}

/// One encoded value: a finished scalar, or a container still being filled.
enum EncodedNode {
  case value(JSONValue)
  case object(EncodedObject)
  case array(EncodedArray)
  /// The value of a nested encoder (`superEncoder`), known once it has encoded something.
  case deferred(TreeEncoder)

  func write(to writer: inout JSONWriter) {
    switch self {
    case .value(let value): value.writeJSON(to: &writer)
    case .object(let object):
      writer.beginObject()
      for name in object.members.keys.sorted(by: JSONStringText.utf8Order) {
        writer.key(name)
        object.members[name]!.write(to: &writer)
      }
      writer.endObject()
    case .array(let array):
      writer.beginArray()
      for element in array.elements { element.write(to: &writer) }
      writer.endArray()
    case .deferred(let encoder):
      (encoder.node ?? .object(EncodedObject())).write(to: &writer)
    }
  }

  static func number(_ double: Double, at path: [any CodingKey]) throws -> EncodedNode {
    switch JSONNumberText.form(of: double) {
    case .integer(let integer): return .value(.int(integer))
    case .text: return .value(.double(double))
    case nil:
      throw EncodingError.invalidValue(
        double, EncodingError.Context(codingPath: path, debugDescription: "\(double) is not a JSON number"))
    }
  }

  static func number(_ float: Float, at path: [any CodingKey]) throws -> EncodedNode {
    do {
      return .value(try JSONValue(float: float))
    } catch {
      throw EncodingError.invalidValue(
        float, EncodingError.Context(codingPath: path, debugDescription: "\(float) is not a JSON number"))
    }
  }

  static func number(_ integer: UInt64) -> EncodedNode {
    .value(Int64(exactly: integer).map(JSONValue.int) ?? .uint(integer))
  }
}

final class EncodedObject {
  var members: [String: EncodedNode] = [:]
}

final class EncodedArray {
  var elements: [EncodedNode] = []
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: TreeEncoder
  let object: EncodedObject
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ node: EncodedNode, _ key: Key) { object.members[key.stringValue] = node }

  mutating func encodeNil(forKey key: Key) throws { set(.value(.null), key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.value(.bool(value)), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.value(.string(value)), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(try .number(value, at: codingPath + [key]), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(try .number(value, at: codingPath + [key]), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.value(.int(value)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.value(.int(Int64(value))), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(value), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try encoder.encodedNode(value, at: codingPath + [key]), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedObject()
    set(.object(nested), key)
    let child = TreeEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo)
    return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: child, object: nested))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = EncodedArray()
    set(.array(nested), key)
    let child = TreeEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo)
    return TreeUnkeyedContainer(encoder: child, array: nested)
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let child = TreeEncoder(codingPath: codingPath + [MemberKey(name)], userInfo: encoder.userInfo)
    object.members[name] = .deferred(child)
    return child
  }
}

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: TreeEncoder
  let array: EncodedArray
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { array.elements.count }

  private var nextPath: [any CodingKey] { codingPath + [MemberKey(index: count)] }
  private func append(_ node: EncodedNode) { array.elements.append(node) }

  mutating func encodeNil() throws { append(.value(.null)) }
  mutating func encode(_ value: Bool) throws { append(.value(.bool(value))) }
  mutating func encode(_ value: String) throws { append(.value(.string(value))) }
  mutating func encode(_ value: Double) throws { append(try .number(value, at: nextPath)) }
  mutating func encode(_ value: Float) throws { append(try .number(value, at: nextPath)) }
  mutating func encode(_ value: Int) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int8) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int16) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int32) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int64) throws { append(.value(.int(value))) }
  mutating func encode(_ value: UInt) throws { append(.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt16) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt32) throws { append(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt64) throws { append(.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try encoder.encodedNode(value, at: nextPath))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedObject()
    let child = TreeEncoder(codingPath: nextPath, userInfo: encoder.userInfo)
    append(.object(nested))
    return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: child, object: nested))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = EncodedArray()
    let child = TreeEncoder(codingPath: nextPath, userInfo: encoder.userInfo)
    append(.array(nested))
    return TreeUnkeyedContainer(encoder: child, array: nested)
  }

  mutating func superEncoder() -> any Encoder {
    let child = TreeEncoder(codingPath: nextPath, userInfo: encoder.userInfo)
    append(.deferred(child))
    return child
  }
}

private struct TreeSingleValueContainer: SingleValueEncodingContainer {
  let encoder: TreeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ node: EncodedNode) { encoder.setNode(node) }

  mutating func encodeNil() throws { set(.value(.null)) }
  mutating func encode(_ value: Bool) throws { set(.value(.bool(value))) }
  mutating func encode(_ value: String) throws { set(.value(.string(value))) }
  mutating func encode(_ value: Double) throws { set(try .number(value, at: codingPath)) }
  mutating func encode(_ value: Float) throws { set(try .number(value, at: codingPath)) }
  mutating func encode(_ value: Int) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int8) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int16) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int32) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: Int64) throws { set(.value(.int(value))) }
  mutating func encode(_ value: UInt) throws { set(.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt16) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt32) throws { set(.value(.int(Int64(value)))) }
  mutating func encode(_ value: UInt64) throws { set(.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    set(try encoder.encodedNode(value, at: codingPath))
  }
}
