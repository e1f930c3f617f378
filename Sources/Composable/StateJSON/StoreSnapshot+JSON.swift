import StoreHostJSON

/// The RFC 6902 operations from one version of a state's JSON to another, and how much
/// the JSON grew.
public struct StatePatch: Sendable {
  /// A JSON array of `add`, `remove` and `replace` operations.
  public var operations: [UInt8]
  /// How many operations `operations` holds.
  public var operationCount: Int
  /// The new JSON's length minus the old one's, in bytes.
  public var sizeChange: Int
}

extension StoreSnapshot where State: Encodable {
  /// The state's JSON as clients see it (see `StoreHostJSON/JSONEncoding`), with each
  /// shared value as it was at this version.
  /// - Parameter capacity: The bytes to reserve: the length of a recent version, say.
  public func encodedState(capacity: Int = 128) throws -> [UInt8] {
    try JSONEncoding.encode(state, context: sharedValues, capacity: capacity)
  }

  /// The patch that turns `older`'s JSON into this snapshot's.
  ///
  /// A state whose type is `StoreHostJSON/JSONDiffable` (a struct marked
  /// `@ObservableState`) is diffed part by part, at the cost of what changed; any other
  /// state is encoded whole, twice, and the two documents diffed.
  public func patch(from older: StoreSnapshot) throws -> StatePatch {
    if let diffable = State.self as? any JSONDiffable.Type {
      // `==` reads shared values as they are now; it can be trusted only where nothing shared
      // changed. A part with the same bytes in both states changed only if it holds a shared
      // value that changed.
      let changedBoxes = sharedValues.boxesChanged(since: older.sharedValues)
      var writer =
        changedBoxes.isEmpty
        ? JSONPatchWriter(oldContext: older.sharedValues, newContext: sharedValues)
        : JSONPatchWriter(
          oldContext: older.sharedValues, newContext: sharedValues,
          equalityMayHideChanges: { SharedTypeAnalysis.mayHoldSharedValues($0) },
          sameBytesMayHideChanges: { SharedScan.holdsAny(of: changedBoxes, in: $0, at: $1) })
      // The states are diffed where they are, not cast or copied (a copy retains all they hold).
      try older.withUnsafeStatePointer { old in
        try withUnsafeStatePointer { new in
          try diffable.writeJSONPatch(fromValueAt: old, toValueAt: new, into: &writer)
        }
      }
      return StatePatch(operations: writer.operations, operationCount: writer.operationCount, sizeChange: writer.sizeChange)
    }
    let oldJSON = try older.encodedState()
    let newJSON = try encodedState()
    let operations = JSONPatch.diff(from: try JSONValue(parsing: oldJSON), to: try JSONValue(parsing: newJSON))
    return StatePatch(
      operations: try JSONEncoding.encode(operations), operationCount: operations.count,
      sizeChange: newJSON.count - oldJSON.count)
  }
}
