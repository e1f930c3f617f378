/// Consecutive steps of a session's history stored as one row of the `history_runs` table:
/// steps of one state version, numbered one after another, of which only the first may keep
/// the whole state. A save's new steps make one run, or one more at each step keeping the
/// whole state, so a save writes a row or two rather than a row per step; and since the
/// oldest kept step always keeps the whole state, runs are deleted whole when it moves on.
///
/// A run's `steps` blob holds each step in turn: its version (8 bytes), the length of its
/// JSON (4 bytes), both little-endian, and the JSON.
struct HistoryRun {
  /// The steps, oldest first: never empty.
  let records: ArraySlice<HistoryRecord>

  var first: HistoryRecord { records[records.startIndex] }
  var last: HistoryRecord { records[records.index(before: records.endIndex)] }

  /// `records` (oldest first) cut into runs: a new one begins at each step keeping the whole
  /// state, at a change of state version, and after a gap in the numbers.
  static func runs(in records: [HistoryRecord]) -> [HistoryRun] {
    var runs: [HistoryRun] = []
    var start = records.startIndex
    for index in records.indices.dropFirst() {
      let record = records[index]
      let previous = records[index - 1]
      if record.state != nil || record.stateVersion != previous.stateVersion || record.step != previous.step + 1 {
        runs.append(HistoryRun(records: records[start..<index]))
        start = index
      }
    }
    if start < records.endIndex { runs.append(HistoryRun(records: records[start...])) }
    return runs
  }

  /// The run's `steps` blob.
  var encodedSteps: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(records.reduce(0) { $0 + Self.stepHeaderSize + $1.json.count })
    for record in records {
      withUnsafeBytes(of: Int64(record.version).littleEndian) { bytes.append(contentsOf: $0) }
      withUnsafeBytes(of: UInt32(record.json.count).littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: record.json)
    }
    return bytes
  }

  /// The steps of a stored run, from its `steps` blob: the first numbered `firstStep`, with
  /// `state` (the whole state it keeps, if any). A blob cut short gives the steps before the cut.
  static func records(
    inSteps steps: UnsafeRawBufferPointer, firstStep: Int, stateVersion: Int, state: [UInt8]?
  ) -> [HistoryRecord] {
    var records: [HistoryRecord] = []
    var offset = 0
    while steps.count - offset >= stepHeaderSize {
      let version = Int64(littleEndian: steps.loadUnaligned(fromByteOffset: offset, as: Int64.self))
      let length = Int(UInt32(littleEndian: steps.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
      offset += stepHeaderSize
      guard length <= steps.count - offset else { break }
      records.append(
        HistoryRecord(
          step: firstStep + records.count, version: Int(version), stateVersion: stateVersion,
          json: Array(steps[offset..<offset + length]), state: records.isEmpty ? state : nil))
      offset += length
    }
    return records
  }

  /// A step's version and JSON length, before its JSON.
  private static let stepHeaderSize = 12
}
