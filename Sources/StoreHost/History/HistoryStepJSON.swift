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
    appendHead(version: version, time: time, to: &json)
    append(actions.isEmpty ? #"shared""# : #"actions""#, to: &json)
    append(#","actions":["#, to: &json)
    for (index, action) in actions.enumerated() {
      if index > 0 { json.append(UInt8(ascii: ",")) }
      switch action.source {
      case .client: append(#"{"source":"client","time":"#, to: &json)
      case .effect: append(#"{"source":"effect","time":"#, to: &json)
      }
      JSONNumberText.appendDecimal(milliseconds(action.time), to: &json)
      append(#","action":"#, to: &json)
      json.append(contentsOf: action.json)
      if !action.uuids.isEmpty { json += Array(#","uuids":"#.utf8) + ((try? JSONEncoding.encode(action.uuids)) ?? []) }
      if !action.dates.isEmpty { json += Array(#","dates":"#.utf8) + ((try? JSONEncoding.encode(action.dates)) ?? []) }
      json.append(UInt8(ascii: "}"))
    }
    append(#"],"patch":"#, to: &json)
    if let patch { json.append(contentsOf: patch) } else { append("null", to: &json) }
    json.append(UInt8(ascii: "}"))
    // Kept for as long as the step is: without the spare capacity reserving left.
    return json.trimmed()
  }

  /// The patch of a step that changed nothing.
  static let noChange: [UInt8] = Array("[]".utf8)

  /// A step without actions that keeps the whole state: where the history starts again.
  static func event(_ kind: String, version: Int, time: Date) -> [UInt8] {
    var json: [UInt8] = []
    appendHead(version: version, time: time, to: &json)
    json.append(contentsOf: kind.utf8)
    append(#"","actions":[],"patch":null}"#, to: &json)
    return json
  }

  /// The step's members up to its kind's opening quote.
  private static func appendHead(version: Int, time: Date, to json: inout [UInt8]) {
    append(#"{"version":"#, to: &json)
    JSONNumberText.appendDecimal(Int64(version), to: &json)
    append(#","time":"#, to: &json)
    JSONNumberText.appendDecimal(milliseconds(time), to: &json)
    append(#","kind":""#, to: &json)
  }

  /// Appends a literal's bytes as one copy (a `String`'s would be copied byte by byte).
  private static func append(_ literal: StaticString, to json: inout [UInt8]) {
    literal.withUTF8Buffer { json.append(contentsOf: $0) }
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }
}
