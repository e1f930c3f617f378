import StoreHostJSON

/// States, actions and changes recorded from a running store as JSON, read back with the
/// app's own types: what a test exported from a session's history is made of.
///
/// ```swift
/// let initialState: AppFeature.State = try Recorded.state(#"{"counter":{"count":0},...}"#, stateVersion: 1)
/// let store = TestStore(initialState: initialState) { AppFeature().droppingEffects() }
/// try await store.send(Recorded.action(#"{"counter":"incrementButtonTapped"}"#)) {
///   try Recorded.apply(#"[{"op":"replace","path":"/counter/count","value":1}]"#, to: &$0)
/// }
/// ```
public enum Recorded {
  /// The state `json` holds, saved under state version `stateVersion` and migrated first
  /// when that is earlier than the state's (see ``MigratableState``).
  public static func state<State: Decodable>(
    _ json: String, stateVersion: Int, as type: State.Type = State.self
  ) throws -> State {
    try SavedState.decode(type, from: Array(json.utf8), savedAt: stateVersion)
  }

  /// The action `json` holds in the externally tagged form. Every case is read, those marked
  /// `@Internal` too: they were recorded, not sent by a client.
  public static func action<Action: Decodable>(_ json: String, as type: Action.Type = Action.self) throws -> Action {
    try JSONValue(parsing: Array(json.utf8)).decode(as: type)
  }

  /// Changes `state` as the JSON Patch (RFC 6902) `patch` changes its JSON: the state is
  /// encoded, patched and decoded again.
  ///
  /// - Throws: `JSONPatchError` when the patch does not apply to the state (a member it
  ///   names is missing, say), or the error of decoding the patched JSON.
  public static func apply<State: Codable>(_ patch: String, to state: inout State) throws {
    let operations = try JSONValue(parsing: Array(patch.utf8)).decode(as: [JSONPatchOperation].self)
    let json = try JSONValue(parsing: try JSONEncoding.encode(state))
    state = try JSONPatch.apply(operations, to: json).decode(as: State.self)
  }
}
