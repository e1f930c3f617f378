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

  /// The action recorded with `json`, its JSON when known (as the client sent it), or its
  /// encoding.
  init<Action: Encodable>(_ action: Action, json: [UInt8]? = nil, source: Source, time: Date) {
    self.json = json ?? (try? JSONEncoding.encode(action)) ?? Array("null".utf8)
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
    var json: [UInt8] = []
    json.reserveCapacity(82 + (patch?.count ?? 4) + actions.reduce(0) { $0 + 51 + $1.json.count })
    appendHead(version: version, time: time, kind: actions.isEmpty ? "shared" : "actions", to: &json)
    json.append(contentsOf: #","actions":["#.utf8)
    for (index, action) in actions.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      json.append(contentsOf: #"{"source":""#.utf8)
      json.append(contentsOf: action.source.rawValue.utf8)
      json.append(contentsOf: #"","time":"#.utf8)
      JSONNumberText.appendDecimal(milliseconds(action.time), to: &json)
      json.append(contentsOf: #","action":"#.utf8)
      json.append(contentsOf: action.json)
      if !action.uuids.isEmpty { json += Array(#","uuids":"#.utf8) + ((try? JSONEncoding.encode(action.uuids)) ?? []) }
      if !action.dates.isEmpty { json += Array(#","dates":"#.utf8) + ((try? JSONEncoding.encode(action.dates)) ?? []) }
      json.append(UInt8(ascii: "}"))
    }
    json.append(contentsOf: #"],"patch":"#.utf8)
    if let patch { json.append(contentsOf: patch) } else { json.append(contentsOf: "null".utf8) }
    json.append(UInt8(ascii: "}"))
    // Kept for as long as the step is: without the spare capacity reserving left.
    return json.trimmed()
  }

  /// A step without actions that keeps the whole state: where the history starts again.
  static func event(_ kind: String, version: Int, time: Date) -> [UInt8] {
    var json: [UInt8] = []
    appendHead(version: version, time: time, kind: kind, to: &json)
    json.append(contentsOf: #","actions":[],"patch":null}"#.utf8)
    return json
  }

  private static func appendHead(version: Int, time: Date, kind: String, to json: inout [UInt8]) {
    json.append(contentsOf: #"{"version":"#.utf8)
    JSONNumberText.appendDecimal(Int64(version), to: &json)
    json.append(contentsOf: #","time":"#.utf8)
    JSONNumberText.appendDecimal(milliseconds(time), to: &json)
    json.append(contentsOf: #","kind":""#.utf8)
    json.append(contentsOf: kind.utf8)
    json.append(UInt8(ascii: "\""))
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }
}
