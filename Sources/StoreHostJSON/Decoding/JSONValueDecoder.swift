import Foundation

/// A `Decoder` reading an already parsed ``JSONValue``: a hand-written `init(from:)` may
/// look at the value (is it a string? an array?) instead of trying containers until one
/// fits, which costs a thrown error per miss.
public protocol JSONValueDecoding: Decoder {
  /// The value being decoded.
  var jsonValue: JSONValue { get }
}

/// A `Decoder` over a parsed ``JSONValue``, with the semantics of Foundation's `JSONDecoder`
/// and its default strategies: dates as seconds since 2001, data as Base64, URLs as strings,
/// whole numbers for integer types. Parse with ``JSONValue/init(parsing:maxDepth:)`` first,
/// which refuses duplicate member names.
///
/// ```swift
/// let action = try JSONValue(parsing: body).decode(as: AppFeature.Action.self)
/// ```
struct JSONValueDecoder: JSONValueDecoding {
  let value: JSONValue
  var jsonValue: JSONValue { value }
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch([String: JSONValue].self, "an object", at: codingPath)
    }
    return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, members: members))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch([JSONValue].self, "an array", at: codingPath)
    }
    return UnkeyedContainer(decoder: self, elements: elements)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self)
  }

  /// A decoder for `value` one level down, at `key`.
  func child(_ value: JSONValue, at key: any CodingKey) -> JSONValueDecoder {
    JSONValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo)
  }

  // MARK: Values

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == Data.self {
      guard let data = Data(base64Encoded: try decode(String.self)) else {
        throw corrupted("the string is not valid Base64")
      }
      return data as! T
    }
    if T.self == URL.self {
      guard let url = URL(string: try decode(String.self)) else { throw corrupted("the string is not a valid URL") }
      return url as! T
    }
    if T.self == Decimal.self {
      switch value {
      case .int, .uint, .double:
        guard let decimal = Decimal(string: value.jsonString) else { throw corrupted("the number does not fit in Decimal") }
        return decimal as! T
      default:
        throw mismatch(T.self, "a number", at: codingPath)
      }
    }
    return try T(from: self)
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(type, "a boolean", at: codingPath) }
    return bool
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let string) = value else { throw mismatch(type, "a string", at: codingPath) }
    return string
  }

  func decode(_ type: Double.Type) throws -> Double {
    switch value {
    case .int(let int): return Double(int)
    case .uint(let uint): return Double(uint)
    case .double(let double): return double
    default: throw mismatch(type, "a number", at: codingPath)
    }
  }

  func decode(_ type: Float.Type) throws -> Float {
    let double = try decode(Double.self)
    guard let float = Float(exactly: double) ?? (abs(double) <= Double(Float.greatestFiniteMagnitude) ? Float(double) : nil)
    else { throw corrupted("the number \(value.jsonString) does not fit in Float") }
    return float
  }

  func decodeInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
    switch value {
    case .int(let int):
      guard let exact = Integer(exactly: int) else {
        throw corrupted("the number \(int) does not fit in \(Integer.self)")
      }
      return exact
    case .uint(let uint):
      guard let exact = Integer(exactly: uint) else {
        throw corrupted("the number \(uint) does not fit in \(Integer.self)")
      }
      return exact
    case .double(let double):
      guard let exact = Integer(exactly: double) else {
        throw corrupted("the number \(value.jsonString) is not a whole number that fits in \(Integer.self)")
      }
      return exact
    default:
      throw mismatch(type, "a number", at: codingPath)
    }
  }

  func mismatch(_ type: Any.Type, _ expected: String, at path: [any CodingKey]) -> DecodingError {
    DecodingError.typeMismatch(
      type, DecodingError.Context(codingPath: path, debugDescription: "Expected \(expected) but found \(value.kindDescription)."))
  }

  func corrupted(_ description: String) -> DecodingError {
    DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
  }
}

extension JSONValue {
  /// `a string`, `an object`, …: what a type mismatch found.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .uint, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: JSONValueDecoder
  let members: [String: JSONValue]
  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { members.keys.sorted(by: JSONStringText.utf8Order).compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func member(_ key: Key) throws -> JSONValueDecoder {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value for key '\(key.stringValue)'."))
    }
    return decoder.child(value, at: key)
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key).value == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decodeInteger(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decodeInteger(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decodeInteger(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decodeInteger(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decodeInteger(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decodeInteger(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decodeInteger(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decodeInteger(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decodeInteger(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decodeInteger(type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try member(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try member(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    decoder.child(members["super"] ?? .null, at: MemberKey("super"))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.child(members[key.stringValue] ?? .null, at: key)
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: JSONValueDecoder
  let elements: [JSONValue]
  private(set) var currentIndex = 0
  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  init(decoder: JSONValueDecoder, elements: [JSONValue]) {
    self.decoder = decoder
    self.elements = elements
  }

  private mutating func next(_ type: Any.Type) throws -> JSONValueDecoder {
    let key = MemberKey(index: currentIndex)
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
    }
    defer { currentIndex += 1 }
    return decoder.child(elements[currentIndex], at: key)
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
  mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decodeInteger(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decodeInteger(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decodeInteger(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decodeInteger(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next([String: JSONValue].self).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next([JSONValue].self).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next(JSONValue.self) }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
  let decoder: JSONValueDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool { decoder.value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type) }
  func decode(_ type: String.Type) throws -> String { try decoder.decode(type) }
  func decode(_ type: Double.Type) throws -> Double { try decoder.decode(type) }
  func decode(_ type: Float.Type) throws -> Float { try decoder.decode(type) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
