import Foundation

extension JSONValue: Codable {
  /// Decodes any JSON value; whole numbers that fit in `Int64` become ``int(_:)``, larger
  /// ones that fit in `UInt64` ``uint(_:)``.
  public init(from decoder: any Decoder) throws {
    if let direct = decoder as? JSONValueDecoder {
      self = direct.value
      return
    }
    if var elements = try? decoder.unkeyedContainer() {
      var array: [JSONValue] = []
      if let count = elements.count { array.reserveCapacity(count) }
      while !elements.isAtEnd { array.append(try elements.decode(JSONValue.self)) }
      self = .array(array)
      return
    }
    if let members = try? decoder.container(keyedBy: MemberKey.self) {
      var object: [String: JSONValue] = [:]
      for key in members.allKeys { object[key.stringValue] = try members.decode(JSONValue.self, forKey: key) }
      self = .object(object)
      return
    }
    let scalar = try decoder.singleValueContainer()
    if scalar.decodeNil() {
      self = .null
    } else if let bool = try? scalar.decode(Bool.self) {
      self = .bool(bool)
    } else if let int = try? scalar.decode(Int64.self) {
      self = .int(int)
    } else if let uint = try? scalar.decode(UInt64.self) {
      self = .uint(uint)
    } else if let double = try? scalar.decode(Double.self) {
      self = .double(double)
    } else {
      self = .string(try scalar.decode(String.self))
    }
  }

  /// Encodes the value; object members in sorted key order.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let members):
      var container = encoder.container(keyedBy: MemberKey.self)
      for key in members.keys.sorted(by: JSONStringText.utf8Order) {
        try container.encode(members[key]!, forKey: MemberKey(key))
      }
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let bool):
      var container = encoder.singleValueContainer()
      try container.encode(bool)
    case .int(let int):
      var container = encoder.singleValueContainer()
      try container.encode(int)
    case .uint(let uint):
      var container = encoder.singleValueContainer()
      try container.encode(uint)
    case .double(let double):
      var container = encoder.singleValueContainer()
      try container.encode(double)
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    }
  }

  /// Converts any `Encodable` value (a feature's state, say) into the JSON value clients see.
  public init(encoding value: some Encodable) throws {
    self = try JSONValue(parsing: JSONEncoding.encode(value))
  }

  /// Decodes a `Decodable` type (a feature's action, say) from this JSON value.
  public func decode<T: Decodable>(as type: T.Type = T.self, userInfo: [CodingUserInfoKey: Any] = [:]) throws -> T {
    try T(from: JSONValueDecoder(value: self, codingPath: [], userInfo: userInfo))
  }
}

/// An object member name or an array position as a coding key.
struct MemberKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init(index: intValue) }
}
