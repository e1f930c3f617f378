// Payloads need not be Codable to compile (an effect's `Result<Data, any Error>`, say):
// these helpers check conformance at run time instead.

/// Decodes a `T` through `decode`, or throws when `T` is not `Decodable`.
func decodeOpaque<T>(
  _ type: T.Type, at codingPath: [any CodingKey],
  _ decode: (any Decodable.Type) throws -> any Decodable
) throws -> T {
  guard let decodable = type as? any Decodable.Type else {
    throw ActionDecodingError(
      .malformed, at: codingPath,
      "\(typeName(type)) is not Decodable, so this payload cannot be decoded")
  }
  return try decode(decodable) as! T
}

/// An optional value, which labeled payloads may leave out.
protocol OptionalPayload {
  static var none: Self { get }
}

extension Optional: OptionalPayload {}

/// The value itself when it is `Encodable`; otherwise its description, so encoding (for
/// logs, say) never fails on an opaque payload.
func encodableOpaque(_ value: Any) -> any Encodable {
  value as? any Encodable ?? String(describing: value)
}
