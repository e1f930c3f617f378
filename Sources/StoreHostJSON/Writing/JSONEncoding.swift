import Foundation

/// Encodes values to the JSON the session host sends: compact, object members sorted by
/// their names' UTF-8 bytes, numbers as ``JSONWriter`` writes them, and otherwise the
/// semantics of Foundation's `JSONEncoder` with its default strategies.
///
/// ```swift
/// let bytes = try JSONEncoding.encode(AppFeature.State())   // {"counter":{"count":0},...}
/// ```
///
/// Types with a ``JSONWritable`` conformance (states marked `@ObservableState`, standard
/// types) are written in one pass; other `Encodable` types go through an `Encoder`.
public enum JSONEncoding {
  /// The JSON bytes of `value`.
  ///
  /// - Parameter context: Handed to values that write themselves per snapshot (see
  ///   ``JSONWriter/context``); `Encodable` values find it in their encoder's `userInfo`
  ///   under ``Foundation/CodingUserInfoKey/jsonContext``.
  ///   - capacity: The bytes to reserve, when the length is about known.
  public static func encode<Value: Encodable>(
    _ value: Value, context: (any Sendable)? = nil, capacity: Int = 128
  ) throws -> [UInt8] {
    guard let writable = Value.self as? any JSONWritable.Type else {
      return try encodeThroughEncoder(value, context: context)
    }
    var writer = JSONWriter(context: context, capacity: capacity)
    // The conformance is looked up on the type, and the value written where it is: neither
    // boxed nor copied.
    try withUnsafePointer(to: value) { try writable.writeJSON(ofValueAt: $0, to: &writer) }
    return writer.bytes
  }

  /// The JSON bytes of `value` through its `Encodable` conformance.
  static func encodeThroughEncoder<Value: Encodable>(_ value: Value, context: (any Sendable)?) throws -> [UInt8] {
    let encoder = TreeEncoder(codingPath: [], userInfo: context.map { [.jsonContext: $0] } ?? [:])
    encoder.setNode(try encoder.encodedNode(value, at: []))
    return encoder.bytes(context: context)
  }
}

extension CodingUserInfoKey {
  /// Where ``JSONEncoding`` puts its `context` for `Encodable` values.
  public static let jsonContext = CodingUserInfoKey(rawValue: "StoreHostJSON.context")!
}
