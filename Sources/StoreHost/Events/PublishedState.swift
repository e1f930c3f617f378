import Foundation

/// One version of a session's state as clients see it: the JSON value (for patches) and
/// its compact text (for `state` events).
struct PublishedState: Sendable {
  let version: Int
  let value: JSONValue
  let text: String

  init(version: Int, value: JSONValue) {
    self.version = version
    self.value = value
    self.text = value.jsonString
  }

  /// The data of an `event: state`: `{"version": n, "state": {...}}`.
  var stateEventData: String { #"{"version":\#(version),"state":\#(text)}"# }

  /// The data of an `event: patch` from `source` to this version: `{"version", "from", "ops"}`.
  func patchEventData(from source: PublishedState) -> String {
    let ops = JSONPatch.diff(from: source.value, to: value)
    let opsText = (try? JSONValue(encoding: ops).jsonString) ?? "[]"
    return #"{"version":\#(version),"from":\#(source.version),"ops":\#(opsText)}"#
  }
}
