/// Writes actions in the externally tagged form: `"tag"` or `{"tag": payload}`.
///
/// The `encode(to:)` that `@CasePathable` generates calls these; by hand:
///
/// ```swift
/// func encode(to encoder: any Encoder) throws {
///   switch self {
///   case .tapped: try ActionEncoding.encode(case: "tapped", to: encoder)
///   case let .setName(name):
///     try ActionEncoding.encode(case: "setName", payload: name, to: encoder)
///   case let .move(from, to):
///     try ActionEncoding.encode(case: "move", labeled: ["from": from, "to": to], to: encoder)
///   case let .pair(number, text):
///     try ActionEncoding.encode(case: "pair", unlabeled: [number, text], to: encoder)
///   }
/// }
/// ```
///
/// A payload that is not `Encodable` is written as its description.
public enum ActionEncoding {
  /// A case without payload: `"tag"`.
  public static func encode(case tag: String, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(tag)
  }

  /// A case with one unlabeled payload: `{"tag": payload}`.
  public static func encode<Payload>(
    case tag: String, payload: Payload, to encoder: any Encoder
  ) throws {
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    try container.encode(encodableOpaque(payload), forKey: ActionCodingKey(tag))
  }

  /// A case with labeled payloads: `{"tag": {"label": value, ...}}`.
  public static func encode(
    case tag: String, labeled payload: KeyValuePairs<String, Any>, to encoder: any Encoder
  ) throws {
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    var values = container.nestedContainer(
      keyedBy: ActionCodingKey.self, forKey: ActionCodingKey(tag))
    for (label, value) in payload {
      try values.encode(encodableOpaque(value), forKey: ActionCodingKey(label))
    }
  }

  /// A case with several unlabeled payloads: `{"tag": [first, second, ...]}`.
  public static func encode(
    case tag: String, unlabeled payload: [Any], to encoder: any Encoder
  ) throws {
    var container = encoder.container(keyedBy: ActionCodingKey.self)
    var values = container.nestedUnkeyedContainer(forKey: ActionCodingKey(tag))
    for value in payload {
      try values.encode(encodableOpaque(value))
    }
  }
}
