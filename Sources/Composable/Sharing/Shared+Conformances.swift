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
  /// Encodes the current value, as if it were not shared.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
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
  /// Encodes the current value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
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
