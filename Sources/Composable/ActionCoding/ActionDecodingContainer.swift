import StoreHostJSON

/// Reads an externally tagged action: `"tag"` or `{"tag": payload}`.
///
/// Generated `init(from:)` of `@CasePathable` enums use it; write one by hand like this:
///
/// ```swift
/// init(from decoder: any Decoder) throws {
///   let container = try ActionDecodingContainer(
///     from: decoder, for: Self.self, cases: ["tapped", "setName", "move", "timerTicked"],
///     internalCases: ["timerTicked"])
///   switch container.tag {
///   case "tapped": try container.decodeNoPayload(); self = .tapped
///   case "setName": self = .setName(try container.decodePayload(String.self))
///   case "move":
///     let payload = try container.decodeLabeledPayload()
///     self = .move(
///       from: try payload.decode(Int.self, forKey: "from"),
///       to: try payload.decode(Int.self, forKey: "to"))
///   case "timerTicked": try container.decodeNoPayload(); self = .timerTicked
///   default: throw container.unknownCase()
///   }
/// }
/// ```
///
/// It rejects unknown case names (listing the valid ones) and, under the
/// ``ActionDecodingPolicy/client`` policy, internal cases.
public struct ActionDecodingContainer {
  /// The case name.
  public let tag: String
  private let payload: KeyedDecodingContainer<ActionCodingKey>?
  private let codingPath: [any CodingKey]
  private let type: Any.Type
  private let cases: [String]
  /// The internal cases when decoding for a client, which are then not valid; else empty.
  private let rejectedCases: Set<String>

  /// Reads the case name of an action of type `type`, whose case names are `cases`, and
  /// checks it against `cases` and, for clients, `internalCases`.
  public init<Action>(
    from decoder: any Decoder, for type: Action.Type, cases: [String],
    internalCases: Set<String> = []
  ) throws {
    let isClient = decoder.actionDecodingPolicy == .client
    self.codingPath = decoder.codingPath
    self.type = type
    self.cases = cases
    self.rejectedCases = isClient ? internalCases : []
    switch (decoder as? any JSONValueDecoding)?.jsonValue {
    case .string(let tag):
      self.tag = tag
      self.payload = nil
    case .object(let members) where members.count == 1:
      self.tag = members.keys.first!
      self.payload = try decoder.container(keyedBy: ActionCodingKey.self)
    default:
      (self.tag, self.payload) = try Self.readTag(from: decoder, of: type)
    }
    if rejectedCases.contains(tag) {
      throw ActionDecodingError(
        .internalCase, at: codingPath,
        "case '\(tag)' of \(typeName(type)) is internal: clients may not send it")
    }
    guard cases.contains(tag) else { throw unknownCase() }
  }

  /// The case name and payload container, found by trying the decoder's containers.
  private static func readTag(from decoder: any Decoder, of type: Any.Type) throws
    -> (String, KeyedDecodingContainer<ActionCodingKey>?)
  {
    if let tag = try? decoder.singleValueContainer().decode(String.self) { return (tag, nil) }
    let container: KeyedDecodingContainer<ActionCodingKey>
    do {
      container = try decoder.container(keyedBy: ActionCodingKey.self)
    } catch {
      throw ActionDecodingError(
        .malformed, at: decoder.codingPath,
        "expected a case name or an object with one key, the case name, for \(typeName(type))")
    }
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      let keys = container.allKeys.map(\.stringValue).sorted().joined(separator: ", ")
      let found = keys.isEmpty ? "none" : keys
      throw ActionDecodingError(
        .malformed, at: decoder.codingPath,
        "an action object has one key, the case name of \(typeName(type)), but found \(found)")
    }
    return (key.stringValue, container)
  }

  /// The error for a case name that is not one of `cases`, listing the valid ones.
  public func unknownCase() -> ActionDecodingError {
    ActionDecodingError(
      .unknownCase, at: codingPath,
      "unknown case '\(tag)' of \(typeName(type)); valid cases: \(validCases)")
  }

  private var validCases: String {
    cases.filter { !rejectedCases.contains($0) }.joined(separator: ", ")
  }

  /// Checks that the case carries no payload: `"tag"` (or `{"tag": null}`).
  public func decodeNoPayload() throws {
    guard let payload else { return }
    guard (try? payload.decodeNil(forKey: ActionCodingKey(tag))) == true else {
      throw ActionDecodingError(
        .malformed, at: codingPath, "case '\(tag)' of \(typeName(type)) takes no payload")
    }
  }

  /// The single unlabeled payload: `{"tag": payload}`.
  public func decodePayload<T>(_ type: T.Type = T.self) throws -> T {
    let (container, key) = try payloadContainer()
    return try decodeOpaque(type, at: codingPath + [key]) {
      try container.decode($0, forKey: key)
    }
  }

  /// The labeled payload: `{"tag": {"label": value, ...}}`.
  public func decodeLabeledPayload() throws -> LabeledActionPayload {
    let (container, key) = try payloadContainer()
    return LabeledActionPayload(
      container: try container.nestedContainer(keyedBy: ActionCodingKey.self, forKey: key))
  }

  /// The several unlabeled payloads: `{"tag": [first, second, ...]}`, exactly `count` of them.
  public func decodeUnlabeledPayload(count: Int) throws -> UnlabeledActionPayload {
    let (container, key) = try payloadContainer()
    let payload = try container.nestedUnkeyedContainer(forKey: key)
    guard payload.count == count else {
      let found = payload.count.map(String.init) ?? "an unknown number"
      throw ActionDecodingError(
        .malformed, at: codingPath + [key],
        "case '\(tag)' of \(typeName(type)) takes an array of \(count) values, not \(found)")
    }
    return UnlabeledActionPayload(container: payload)
  }

  private func payloadContainer() throws
    -> (KeyedDecodingContainer<ActionCodingKey>, ActionCodingKey)
  {
    guard let payload else {
      throw ActionDecodingError(
        .malformed, at: codingPath,
        "case '\(tag)' of \(typeName(type)) needs a payload: {\"\(tag)\": ...}")
    }
    return (payload, ActionCodingKey(tag))
  }
}

/// The labeled values of a case: `{"from": 1, "to": 3}`.
public struct LabeledActionPayload {
  let container: KeyedDecodingContainer<ActionCodingKey>

  /// The value labeled `label`; `nil` when an optional value is left out.
  public func decode<T>(_ type: T.Type = T.self, forKey label: String) throws -> T {
    let key = ActionCodingKey(label)
    if !container.contains(key), let optional = type as? any OptionalPayload.Type {
      return optional.none as! T
    }
    return try decodeOpaque(type, at: container.codingPath + [key]) {
      try container.decode($0, forKey: key)
    }
  }
}

/// The unlabeled values of a case, in order: `[1, "a"]`.
public struct UnlabeledActionPayload {
  var container: any UnkeyedDecodingContainer

  /// The next value.
  public mutating func decode<T>(_ type: T.Type = T.self) throws -> T {
    let path = container.codingPath + [ActionCodingKey(intValue: container.currentIndex)!]
    return try decodeOpaque(type, at: path) { try container.decode($0) }
  }
}
