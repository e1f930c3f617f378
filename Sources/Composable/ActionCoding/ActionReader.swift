import StoreHostJSON

/// An action type that reads itself straight from a request's bytes: `@CasePathable`
/// generates ``readJSON(from:)`` beside `init(from:)`, from the same cases, so
/// ``ActionDecoding`` decodes without a tree of the JSON or a `Decoder`.
///
/// The reading is a fast path only: it gives up (``ActionReader/Mismatch``) on anything it
/// does not expect, and ``ActionDecoding`` then decodes the same bytes with `init(from:)`,
/// whose result or error stands. So both always agree.
public protocol JSONReadableAction {
  /// Reads `"case"` or `{"case": payload}` for a client: internal cases are refused.
  static func readJSON(from reader: inout ActionReader) throws(ActionReader.Mismatch) -> Self
}

/// Reads externally tagged actions from a client's JSON for generated
/// ``JSONReadableAction/readJSON(from:)``:
///
/// ```swift
/// static func readJSON(from reader: inout ActionReader) throws(ActionReader.Mismatch) -> Self {
///   let tag = try reader.readCase()
///   switch tag.name {
///   case "tapped": try reader.readNoPayload(tag); return .tapped
///   case "setName": return .setName(try reader.readPayload(tag))
///   default: throw ActionReader.Mismatch()
///   }
/// }
/// ```
public struct ActionReader: ~Copyable {
  /// The bytes were not what the reader expected: decode them the long way.
  public struct Mismatch: Error {
    public init() {}
  }

  /// The case an action names, and whether its payload follows.
  public struct Tag {
    public let name: String
    let hasPayload: Bool
  }

  var json: JSONReader

  init(_ bytes: UnsafeRawBufferPointer) {
    json = JSONReader(bytes)
  }

  /// A payload was decoded with `init(from:)` from an object or an array, where decoding may
  /// pass over members it does not know: the bytes may then say more than the action.
  private(set) var decodedStructuredPayload = false

  /// Where the reader is.
  var mark: JSONReader.Mark { json.mark }

  /// What was read since `mark`, as compact JSON.
  func compactBytes(since mark: JSONReader.Mark) -> [UInt8] { json.compactBytes(since: mark) }

  /// Whether the reader is at the end of its bytes.
  mutating func isAtEnd() -> Bool { json.isAtEnd() }

  /// Whether the next value is an array (a batch of actions), which it then enters.
  mutating func beginBatch() throws(Mismatch) -> Bool {
    guard json.peek() == .array else { return false }
    try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.beginArray() }
    return true
  }

  /// Whether the batch has another action, after the separator before it.
  mutating func hasNextInBatch(first: Bool) throws(Mismatch) -> Bool {
    try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.hasNextElement(first: first) }
  }

  /// What the client policy puts in a decoder's `userInfo`.
  nonisolated(unsafe) private static let userInfo: [CodingUserInfoKey: Any] = [
    .actionDecodingPolicy: ActionDecodingPolicy.client
  ]

  /// Reads the case name: `"name"`, or `{"name":` before its payload. The generated code
  /// then switches over the cases clients may send, and gives up on any other.
  public mutating func readCase() throws(Mismatch) -> Tag {
    let tag: Tag
    switch json.peek() {
    case .string:
      tag = Tag(name: try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.readString() }, hasPayload: false)
    case .object:
      var names: [String] = []
      let name = try attempt { (json: inout JSONReader) throws(JSONParseError) -> String? in
        try json.beginObject()
        return try json.readMemberName(after: &names)
      }
      guard let name else { throw Mismatch() }
      tag = Tag(name: name, hasPayload: true)
    default:
      throw Mismatch()
    }
    return tag
  }

  /// A case without payload: `"name"` or `{"name": null}`.
  public mutating func readNoPayload(_ tag: Tag) throws(Mismatch) {
    guard tag.hasPayload else { return }
    try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.readNull() }
    try end(tag)
  }

  /// The single payload of an action case that reads itself.
  public mutating func readPayload<Payload: JSONReadableAction>(_ tag: Tag) throws(Mismatch) -> Payload {
    guard tag.hasPayload else { throw Mismatch() }
    let payload = try Payload.readJSON(from: &self)
    try end(tag)
    return payload
  }

  /// The single payload of any other type: decoded from its value with `init(from:)`.
  public mutating func readPayload<Payload>(_ tag: Tag) throws(Mismatch) -> Payload {
    guard let payload = try readDecodedPayload(tag, as: Payload.self) as? Payload else { throw Mismatch() }
    return payload
  }

  /// The single payload, of `type`: decoded from its value with `init(from:)`, when `type`
  /// is `Decodable`.
  mutating func readDecodedPayload(_ tag: Tag, as type: Any.Type) throws(Mismatch) -> Any {
    guard tag.hasPayload, let decodable = type as? any Decodable.Type else { throw Mismatch() }
    let value = try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.readValue() }
    try end(tag)
    noteDecoded(value)
    guard let payload = try? value.decodeOpened(decodable, userInfo: Self.userInfo) else { throw Mismatch() }
    return payload
  }

  /// The case with payloads of another shape (labeled, or several): read as a value and
  /// decoded with `Action`'s `init(from:)`.
  public mutating func readCase<Action: Decodable>(_ tag: Tag, as type: Action.Type) throws(Mismatch) -> Action {
    guard tag.hasPayload else { throw Mismatch() }
    let payload = try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.readValue() }
    try end(tag)
    noteDecoded(payload)
    guard let action = try? JSONValue.object([tag.name: payload]).decode(as: type, userInfo: Self.userInfo)
    else { throw Mismatch() }
    return action
  }

  private mutating func noteDecoded(_ value: JSONValue) {
    switch value {
    case .object, .array: decodedStructuredPayload = true
    default: break
    }
  }

  /// After a payload: the object of the case closes (it has one member).
  private mutating func end(_ tag: Tag) throws(Mismatch) {
    guard tag.hasPayload else { return }
    var names = [tag.name]
    let next = try attempt { (json: inout JSONReader) throws(JSONParseError) in try json.readMemberName(after: &names) }
    guard next == nil else { throw Mismatch() }
  }

  private mutating func attempt<Value>(
    _ step: (inout JSONReader) throws(JSONParseError) -> Value
  ) throws(Mismatch) -> Value {
    do {
      return try step(&json)
    } catch {
      throw Mismatch()
    }
  }
}

extension JSONValue {
  /// Decodes a value of a type known only at run time.
  fileprivate func decodeOpened(_ type: any Decodable.Type, userInfo: [CodingUserInfoKey: Any]) throws -> Any {
    try decode(as: type, userInfo: userInfo)
  }
}
