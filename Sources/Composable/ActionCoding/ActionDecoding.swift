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
    if let readable = Action.self as? any JSONReadableAction.Type,
      let actions = data.withUnsafeBytes({ readable.readClientActions(as: Action.self, $0) })
    {
      return actions
    }
    return try decode(OneOrMany<Action>.self, from: data).actions
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
  /// ``readClientActions(_:)`` for a caller that knows `Self` only as `Action`.
  static func readClientActions<Action>(as type: Action.Type, _ bytes: UnsafeRawBufferPointer) -> [Action]? {
    // The same type, known to the caller only as `Action`: the array is the same array.
    guard type == Self.self, let actions = readClientActions(bytes) else { return nil }
    return unsafeBitCast(actions, to: [Action].self)
  }

  /// One action or an array of them read straight from `bytes` (``readJSON(from:)``);
  /// `nil` when the fast path gives up, and decoding the long way decides.
  static func readClientActions(_ bytes: UnsafeRawBufferPointer) -> [Self]? {
    var reader = ActionReader(bytes)
    do throws(ActionReader.Mismatch) {
      var actions: [Self] = []
      if try reader.beginBatch() {
        while try reader.hasNextInBatch(first: actions.isEmpty) { actions.append(try readJSON(from: &reader)) }
      } else {
        actions.append(try readJSON(from: &reader))
      }
      return reader.isAtEnd() ? actions : nil
    } catch {
      return nil
    }
  }
}
