import Composable
import HTTP
import StoreHostJSON
import Synchronization

/// One version of a session's state as clients see it. Its JSON is made once, when first
/// needed, then shared by every client, the save and the reads; its events are made once
/// per publication (``EventFanout/publish(_:)``): nothing is encoded or framed per client.
final class PublishedState: Sendable {
  let version: Int
  /// The operations from an earlier version to this one, when known.
  let patch: VersionPatch?
  /// Makes the state's JSON; called at most once.
  private let encode: @Sendable () throws -> [UInt8]
  private let made = Mutex(Made())

  private struct Made {
    var json: Result<[UInt8], any Error>?
  }

  init(version: Int, patch: VersionPatch?, encode: @escaping @Sendable () throws -> [UInt8]) {
    self.version = version
    self.patch = patch
    self.encode = encode
  }

  /// A version whose JSON is already known (as read from a database).
  convenience init(version: Int, patch: VersionPatch? = nil, json: [UInt8]) {
    self.init(version: version, patch: patch) { json }
  }

  /// The last of `states`, consecutive versions, with their patches joined: one version
  /// that leads from the one before the first.
  convenience init(joining states: [PublishedState]) {
    let last = states.last!
    var patch = states.first!.patch
    for state in states.dropFirst() { patch = patch.flatMap { joined in state.patch.map(joined.followed(by:)) } }
    self.init(version: last.version, patch: patch) { try last.json() }
  }

  /// The state's compact JSON.
  func json() throws -> [UInt8] {
    try made.withLock { made in
      if let json = made.json { return try json.get() }
      // Kept as long as the version is the latest: without the writer's spare capacity.
      let json = Result { try encode().trimmed() }
      made.json = json
      return try json.get()
    }
  }

  /// `event: state`, `id: <version>`, `data: {"version": n, "state": {...}}` (framed as
  /// `framing` says); `nil` when the state cannot be encoded.
  func stateFrame(_ framing: EventFraming = .alone) -> EventFrame? {
    guard let json = try? json() else { return nil }
    let data = framing.object(capacity: json.count + 40) { data in
      data.append(contentsOf: #""version":"#.utf8)
      data.append(contentsOf: String(version).utf8)
      data.append(contentsOf: #","state":"#.utf8)
      data.append(contentsOf: json)
    }
    return EventFrame(event: "state", id: framing.eventID(version), data: data)
  }

  /// `event: patch` with `{"version", "from", "ops"}` from ``patch``'s version.
  func patchFrame(_ framing: EventFraming = .alone) -> EventFrame? {
    patch?.frame(to: version, framing)
  }
}

/// RFC 6902 operations from version `from` to a later one, as a JSON array.
struct VersionPatch: Sendable {
  let from: Int
  let operations: [UInt8]
  let operationCount: Int

  init(from: Int, operations: [UInt8], operationCount: Int) {
    self.from = from
    self.operations = operations
    self.operationCount = operationCount
  }

  init(from: Int, _ patch: StatePatch) {
    self.init(from: from, operations: patch.operations, operationCount: patch.operationCount)
  }

  /// This patch followed by `next` (which starts where this one ends): one longer patch.
  func followed(by next: VersionPatch) -> VersionPatch {
    guard operationCount > 0 else { return VersionPatch(from: from, operations: next.operations, operationCount: next.operationCount) }
    guard next.operationCount > 0 else { return self }
    var joined = Array(operations.dropLast())
    joined.append(UInt8(ascii: ","))
    joined.append(contentsOf: next.operations.dropFirst())
    return VersionPatch(from: from, operations: joined, operationCount: operationCount + next.operationCount)
  }

  /// The `patch` event from ``from`` to `version`.
  func frame(to version: Int, _ framing: EventFraming = .alone) -> EventFrame {
    let data = framing.object(capacity: operations.count + 60) { data in
      data.append(contentsOf: #""version":"#.utf8)
      data.append(contentsOf: String(version).utf8)
      data.append(contentsOf: #","from":"#.utf8)
      data.append(contentsOf: String(from).utf8)
      data.append(contentsOf: #","ops":"#.utf8)
      data.append(contentsOf: operations)
    }
    return EventFrame(event: "patch", id: framing.eventID(version), data: data)
  }
}
