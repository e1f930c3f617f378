import Foundation
import StoreHostJSON

/// One action of a history step, as recorded while its send was reduced.
struct RecordedAction: Sendable {
  /// Who sent it.
  enum Source: String, Sendable {
    /// Sent to the session from outside its effects: a client's actions request, or the
    /// host's resumed action after a restart.
    case client
    /// Sent by one of the session's effects, or returned by the action before it.
    case effect
  }

  /// The action's JSON (`null` when it could not be encoded).
  let json: [UInt8]
  let source: Source
  let time: Date
  /// The UUIDs and dates the reducer drew from its dependencies while reducing it.
  var uuids: [UUID] = []
  var dates: [Date] = []

  init<Action: Encodable>(_ action: Action, source: Source, time: Date) {
    self.json = (try? JSONEncoding.encode(action)) ?? Array("null".utf8)
    self.source = source
    self.time = time
  }
}

/// The JSON of a history step, as stored and served:
///
/// ```json
/// {"version": 12, "time": 1717236000123, "kind": "actions",
///  "actions": [{"source": "client", "time": 1717236000120, "action": {"counter": "incrementButtonTapped"}}],
///  "patch": [{"op": "replace", "path": "/counter/count", "value": 1}]}
/// ```
///
/// `kind` is `actions` (one send: the action sent and those its effects returned, with
/// `uuids` and `dates` the reducer drew), `shared` (a shared value changed elsewhere),
/// `created`, `resumed` or `cleared`. `patch` leads from the step before (`[]`: no change;
/// `null`: the step keeps the whole state instead). Times are milliseconds since 1970.
enum HistoryStepJSON {
  /// The step of a send's actions (`kind` `actions`), or of a change made elsewhere when
  /// there are none (`shared`).
  static func step(version: Int, time: Date, actions: [RecordedAction], patch: [UInt8]?) -> [UInt8] {
    var json = head(version: version, time: time, kind: actions.isEmpty ? "shared" : "actions")
    json += Array(#","actions":["#.utf8)
    for (index, action) in actions.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json += Array(#"{"source":"\#(action.source.rawValue)","time":\#(milliseconds(action.time)),"action":"#.utf8)
      json += action.json
      if !action.uuids.isEmpty { json += Array(#","uuids":"#.utf8) + ((try? JSONEncoding.encode(action.uuids)) ?? []) }
      if !action.dates.isEmpty { json += Array(#","dates":"#.utf8) + ((try? JSONEncoding.encode(action.dates)) ?? []) }
      json.append(UInt8(ascii: "}"))
    }
    json += Array(#"],"patch":"#.utf8) + (patch ?? Array("null".utf8)) + [UInt8(ascii: "}")]
    // Kept for as long as the step is: without the spare capacity appending left.
    return json.trimmed()
  }

  /// A step without actions that keeps the whole state: where the history starts again.
  static func event(_ kind: String, version: Int, time: Date) -> [UInt8] {
    head(version: version, time: time, kind: kind) + Array(#","actions":[],"patch":null}"#.utf8)
  }

  private static func head(version: Int, time: Date, kind: String) -> [UInt8] {
    Array(#"{"version":\#(version),"time":\#(milliseconds(time)),"kind":"\#(kind)""#.utf8)
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }
}
