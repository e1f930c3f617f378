import Foundation
import StoreHostJSON

/// Decodes actions sent by untrusted clients: JSON in the externally tagged form, with the
/// ``ActionDecodingPolicy/client`` policy, every failure reported as an ``ActionDecodingError``.
///
/// The bytes are parsed strictly (`StoreHostJSON/JSONValue/init(parsing:maxDepth:)`):
/// an object naming a member twice is refused, since readers disagree on which one counts.
///
/// ```swift
/// let actions = try ActionDecoding.decodeClientActions(AppFeature.Action.self, from: body)
/// ```
public enum ActionDecoding {
  /// One action: `{"counter": "incrementButtonTapped"}`.
  public static func decodeClientAction<Action: Decodable>(
    _ type: Action.Type, from data: some ContiguousBytes
  ) throws(ActionDecodingError) -> Action {
    try decode(Action.self, from: data)
  }

  /// One action or an array of actions (all decoded, or an error for the first that fails).
  public static func decodeClientActions<Action: Decodable>(
    _ type: Action.Type, from data: some ContiguousBytes
  ) throws(ActionDecodingError) -> [Action] {
    try decodeClientActions(Action.self, from: data, keepingJSON: false).actions
  }

  /// ``decodeClientActions(_:from:)``, with each action's JSON as the client sent it, made
  /// compact, when `keepingJSON` and those bytes stand for the action exactly (see
  /// ``ClientActions/json``): a host records them instead of encoding the action again.
  @_spi(Hosting) public static func decodeClientActions<Action: Decodable>(
    _ type: Action.Type, from data: some ContiguousBytes, keepingJSON: Bool
  ) throws(ActionDecodingError) -> ClientActions<Action> {
    if let readable = Action.self as? any JSONReadableAction.Type,
      let read = data.withUnsafeBytes({ readable.readClientActions(as: Action.self, $0, keepingJSON: keepingJSON) })
    {
      return read
    }
    return ClientActions(actions: try decode(OneOrMany<Action>.self, from: data).actions, json: nil)
  }

  /// The `userInfo` that makes a `Decoder` apply the client policy.
  public static var clientUserInfo: [CodingUserInfoKey: any Sendable] { [.actionDecodingPolicy: ActionDecodingPolicy.client] }

  private static func decode<Value: Decodable>(
    _ type: Value.Type, from data: some ContiguousBytes
  ) throws(ActionDecodingError) -> Value {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: data)
    } catch {
      throw ActionDecodingError(.malformed, at: [], "the body is not valid JSON: \(error)")
    }
    do {
      return try json.decode(as: Value.self, userInfo: clientUserInfo)
    } catch {
      throw ActionDecodingError(error)
    }
  }
}

/// An action or an array of them: actions themselves are never JSON arrays.
private struct OneOrMany<Action: Decodable>: Decodable {
  let actions: [Action]

  init(from decoder: any Decoder) throws {
    let isArray: Bool
    if let json = (decoder as? any JSONValueDecoding)?.jsonValue {
      if case .array = json { isArray = true } else { isArray = false }
    } else {
      isArray = (try? decoder.unkeyedContainer()) != nil
    }
    if isArray {
      var list = try decoder.unkeyedContainer()
      var actions: [Action] = []
      while !list.isAtEnd { actions.append(try list.decode(Action.self)) }
      self.actions = actions
    } else {
      self.actions = [try Action(from: decoder)]
    }
  }
}

extension JSONReadableAction {
  /// ``readClientActions(_:keepingJSON:)`` for a caller that knows `Self` only as `Action`.
  static func readClientActions<Action>(
    as type: Action.Type, _ bytes: UnsafeRawBufferPointer, keepingJSON: Bool
  ) -> ClientActions<Action>? {
    // The same type, known to the caller only as `Action`: the array is the same array.
    guard type == Self.self, let read = readClientActions(bytes, keepingJSON: keepingJSON) else { return nil }
    return ClientActions(actions: unsafeBitCast(read.actions, to: [Action].self), json: read.json)
  }

  /// One action or an array of them read straight from `bytes` (``readJSON(from:)``),
  /// with the JSON of each when `keepingJSON`; `nil` when the fast path gives up, and
  /// decoding the long way decides.
  static func readClientActions(_ bytes: UnsafeRawBufferPointer, keepingJSON: Bool) -> ClientActions<Self>? {
    var reader = ActionReader(bytes)
    var actions: [Self] = []
    var json: [[UInt8]] = []
    func readAction() throws(ActionReader.Mismatch) {
      let start = reader.mark
      actions.append(try readJSON(from: &reader))
      if keepingJSON { json.append(reader.compactBytes(since: start)) }
    }
    do throws(ActionReader.Mismatch) {
      if try reader.beginBatch() {
        while try reader.hasNextInBatch(first: actions.isEmpty) { try readAction() }
      } else {
        try readAction()
      }
      guard reader.isAtEnd() else { return nil }
    } catch {
      return nil
    }
    return ClientActions(actions: actions, json: keepingJSON && !reader.decodedStructuredPayload ? json : nil)
  }
}

/// A client's actions, in order, as ``ActionDecoding`` read them.
@_spi(Hosting) public struct ClientActions<Action> {
  public var actions: [Action]
  /// The JSON of each action as the client sent it, without whitespace between tokens, when
  /// those bytes stand for the action exactly: every part of it was read by the action's
  /// own reader or was a single value (a string, a number). `nil` otherwise, or when not
  /// asked for: a payload decoded from an object with `init(from:)` may have passed over
  /// members it does not know.
  public var json: [[UInt8]]?
}
