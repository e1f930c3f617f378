import StoreHostJSON

extension Shared: Equatable where Value: Equatable {
  /// Whether both hold equal values (not whether they are the same reference).
  public static func == (lhs: Shared, rhs: Shared) -> Bool {
    if let assertion = SharedAssertion.active {
      return assertion.expectedValue(of: lhs.reference) == assertion.actualValue(of: rhs.reference)
    }
    return lhs.reference === rhs.reference || lhs.reference.value == rhs.reference.value
  }
}

extension Shared: Encodable where Value: Encodable {
  /// Encodes the current value, as if it were not shared; under ``StoreHostJSON/JSONEncoding``
  /// with a ``SharedSnapshot`` context, the value at that snapshot.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(reference.value(in: encoder.userInfo[.jsonContext]) ?? wrappedValue)
  }
}

extension Shared: JSONWritable where Value: JSONWritable {
  /// Writes the value, as of the writer's ``SharedSnapshot`` when it has one.
  public func writeJSON(to writer: inout JSONWriter) throws {
    try (reference.value(in: writer.context) ?? wrappedValue).writeJSON(to: &writer)
  }
}

extension Shared: Decodable where Value: Decodable {
  /// Decodes a value into a new shared value owned by no key.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(Value.self))
  }
}

extension Shared: CustomStringConvertible {
  public var description: String { "\(wrappedValue)" }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Whether both hold equal values.
  public static func == (lhs: SharedReader, rhs: SharedReader) -> Bool {
    if let assertion = SharedAssertion.active {
      return assertion.expectedValue(of: lhs.reference) == assertion.actualValue(of: rhs.reference)
    }
    return lhs.reference === rhs.reference || lhs.reference.value == rhs.reference.value
  }
}

extension SharedReader: Encodable where Value: Encodable {
  /// Encodes the current value; under ``StoreHostJSON/JSONEncoding`` with a
  /// ``SharedSnapshot`` context, the value at that snapshot.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(reference.value(in: encoder.userInfo[.jsonContext]) ?? wrappedValue)
  }
}

extension SharedReader: JSONWritable where Value: JSONWritable {
  /// Writes the value, as of the writer's ``SharedSnapshot`` when it has one.
  public func writeJSON(to writer: inout JSONWriter) throws {
    try (reference.value(in: writer.context) ?? wrappedValue).writeJSON(to: &writer)
  }
}

extension SharedReader: Decodable where Value: Decodable {
  /// Decodes a constant value.
  public init(from decoder: any Decoder) throws {
    self.init(value: try decoder.singleValueContainer().decode(Value.self))
  }
}

extension SharedReader: CustomStringConvertible {
  public var description: String { "\(wrappedValue)" }
}
