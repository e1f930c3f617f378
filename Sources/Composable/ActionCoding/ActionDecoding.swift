import Foundation

/// Decodes actions sent by untrusted clients: JSON in the externally tagged form, with the
/// ``ActionDecodingPolicy/client`` policy, every failure reported as an ``ActionDecodingError``.
///
/// ```swift
/// let actions = try ActionDecoding.decodeClientActions(AppFeature.Action.self, from: body)
/// ```
public enum ActionDecoding {
  /// One action: `{"counter": "incrementButtonTapped"}`.
  public static func decodeClientAction<Action: Decodable>(
    _ type: Action.Type, from data: Data
  ) throws(ActionDecodingError) -> Action {
    do {
      return try clientDecoder().decode(Action.self, from: data)
    } catch {
      throw ActionDecodingError(error)
    }
  }

  /// One action or an array of actions (all decoded, or an error for the first that fails).
  public static func decodeClientActions<Action: Decodable>(
    _ type: Action.Type, from data: Data
  ) throws(ActionDecodingError) -> [Action] {
    do {
      return try clientDecoder().decode(OneOrMany<Action>.self, from: data).actions
    } catch {
      throw ActionDecodingError(error)
    }
  }

  /// A `JSONDecoder` with the client policy.
  public static func clientDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[.actionDecodingPolicy] = ActionDecodingPolicy.client
    return decoder
  }
}

/// An action or an array of them: actions themselves are never JSON arrays.
private struct OneOrMany<Action: Decodable>: Decodable {
  let actions: [Action]

  init(from decoder: any Decoder) throws {
    if var list = try? decoder.unkeyedContainer() {
      var actions: [Action] = []
      while !list.isAtEnd { actions.append(try list.decode(Action.self)) }
      self.actions = actions
    } else {
      self.actions = [try Action(from: decoder)]
    }
  }
}
