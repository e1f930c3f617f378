import Composable
import StoreHostJSON

/// A session's kept history read back from its ``HistoryRecord``s: each step with its
/// actions and the state after it, rebuilt from the last whole state and the patches since,
/// and migrated to this build's state version when an earlier build recorded it.
struct RecordedHistory {
  /// One step read back.
  struct Step {
    let record: HistoryRecord
    /// `actions`, `shared`, `created`, `resumed` or `cleared` (see ``HistoryStepJSON``).
    let kind: String
    /// Milliseconds since 1970.
    let time: Int64
    let actions: [Action]
    /// The state after the step, in this build's state version; `nil` when it cannot be
    /// read (a patch that does not apply, a migration that fails).
    let state: JSONValue?

    var version: Int { record.version }
  }

  /// One recorded action of a step.
  struct Action {
    /// `client` or `effect`.
    let source: String
    let time: Int64
    /// The action's JSON.
    let action: JSONValue
    /// The UUIDs and dates (seconds since 2001) the reducer drew while reducing it.
    let uuids: [String]
    let dates: [Double]
  }

  let steps: [Step]

  /// Reads `records` (consecutive steps, oldest first), migrating states to `State`'s state
  /// version.
  init<State>(_ records: some Collection<HistoryRecord>, as type: State.Type) {
    var steps: [Step] = []
    var state: JSONValue?
    for record in records {
      let json = (try? JSONValue(parsing: record.json)) ?? .null
      if let whole = record.state {
        state = try? JSONValue(parsing: whole)
      } else if let current = state, let patch = json["patch"], patch != .null {
        state = (try? patch.decode(as: [JSONPatchOperation].self)).flatMap { try? JSONPatch.apply($0, to: current) }
      } else {
        state = nil
      }
      var migrated = state
      if migrated != nil, (try? SavedState.migrate(&migrated!, of: type, savedAt: record.stateVersion)) == nil {
        migrated = nil
      }
      steps.append(
        Step(
          record: record, kind: json["kind"]?.string ?? "", time: json["time"]?.int64 ?? 0,
          actions: json["actions"]?.array?.map(Action.init) ?? [], state: migrated))
    }
    self.steps = steps
  }

  /// The state after the last step at `version`, read from the nearest whole state before
  /// it: `nil` when no kept step has that version, `.null` when it cannot be read.
  static func state<State>(at version: Int, in records: [HistoryRecord], as type: State.Type) -> JSONValue? {
    guard let last = records.lastIndex(where: { $0.version == version }) else { return nil }
    let start = records[...last].lastIndex { $0.state != nil } ?? records.startIndex
    return RecordedHistory(records[start...last], as: type).steps.last?.state ?? .null
  }
}

extension RecordedHistory.Action {
  init(_ json: JSONValue) {
    source = json["source"]?.string ?? ""
    time = json["time"]?.int64 ?? 0
    action = json["action"] ?? .null
    uuids = json["uuids"]?.array?.compactMap(\.string) ?? []
    dates = json["dates"]?.array?.compactMap(\.double) ?? []
  }
}

extension JSONValue {
  fileprivate var string: String? {
    if case .string(let string) = self { string } else { nil }
  }

  fileprivate var int64: Int64? {
    if case .int(let int) = self { int } else { nil }
  }

  fileprivate var double: Double? {
    switch self {
    case .int(let int): Double(int)
    case .double(let double): double
    default: nil
    }
  }

  fileprivate var array: [JSONValue]? {
    if case .array(let array) = self { array } else { nil }
  }
}
