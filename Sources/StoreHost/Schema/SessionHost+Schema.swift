import Composable
import HTTP
import StoreHostJSON

extension SessionHost {
  /// The JSON Schema document of what clients see and send: `$defs` holds `State` (the
  /// state's JSON in `state` events and answers) and `Action` (one action a client may
  /// post; a body may also be an array of them). Served at `GET /api/schema`. Made from the
  /// types' declarations (see `Composable/JSONSchema`): no decoding code of the app runs.
  public static var schema: JSONValue {
    JSONSchema.document(state: State.self, action: Action.self)
  }

  /// TypeScript declarations of ``schema``'s `State` and `Action`, for pages using
  /// `storehost.js` (`StoreHostClient<State, Action>`).
  public static func typeScriptDeclarations(of feature: String) -> String {
    TypeScriptDeclarations.render(
      schema,
      header: """
        The state and actions of \(feature), as GET /api/schema describes them.
        Generated from the Swift types; do not edit.
        """)
  }

  /// `GET /api/schema`: ``schema``, made once per host, when first asked for.
  func schemaResponse() -> Response {
    let json = schemaJSON.withLock { json in
      if let json { return json }
      let made = (try? JSONEncoding.encode(Self.schema)) ?? Array("{}".utf8)
      json = made
      return made
    }
    return jsonResponse(json, status: 200)
  }
}
