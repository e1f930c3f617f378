/// What a process announces on ``PostgresSchema/sharedChannel`` when it changed a shared
/// value: `"<process id> <version> <key>\n<value>"`, the value left out (with its newline)
/// when the payload would pass ``SessionNotification/maxPayloadBytes``; listeners then read it
/// from `storehost_shared`. Keys hold no newline.
struct SharedValueNotification: Equatable, Sendable {
  let processID: String
  let version: Int
  let key: String
  /// The value, when it fit in the payload.
  let value: String?

  init(processID: String, version: Int, key: String, value: String?) {
    self.processID = processID
    self.version = version
    self.key = key
    self.value = value
  }

  /// The payload announcing this change, without the value when it does not fit.
  var payload: String {
    let head = "\(processID) \(version) \(key)"
    guard let value, head.utf8.count + 1 + value.utf8.count <= SessionNotification.maxPayloadBytes else { return head }
    return head + "\n" + value
  }

  /// Reads a payload; `nil` when it is not one of ours.
  init?(payload: String) {
    let lines = payload.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let head = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard head.count == 3, let version = Int(head[1]), !head[2].isEmpty else { return nil }
    self.init(
      processID: String(head[0]), version: version, key: String(head[2]),
      value: lines.count == 2 ? String(lines[1]) : nil)
  }
}
