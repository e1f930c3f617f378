/// A value whose JSON changes can be computed from two values part by part, so that a
/// change costs the size of what changed, not of the whole value.
///
/// `@ObservableState` writes this conformance for an `Equatable`, `Codable` state struct:
/// each stored property is compared with `==` and, when it differs, diffed the same way
/// (when its type conforms too) or replaced.
public protocol JSONDiffable: JSONWritable, Equatable {
  /// Writes the RFC 6902 operations that turn `old`'s JSON into `new`'s, at the patch's
  /// current path.
  static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws

  /// ``writeJSONPatch(from:to:into:)`` for the values of this type at `old` and `new`, where
  /// they are: a caller that knows the type only at run time diffs them without casting or
  /// boxing either. Every type has it from ``writeJSONPatch(from:to:into:)``, which loads
  /// each value from its address (in code specialized for the type, a copy that retains
  /// what the value holds).
  static func writeJSONPatch(
    fromValueAt old: UnsafeRawPointer, toValueAt new: UnsafeRawPointer, into patch: inout JSONPatchWriter) throws
}

extension JSONDiffable {
  public static func writeJSONPatch(
    fromValueAt old: UnsafeRawPointer, toValueAt new: UnsafeRawPointer, into patch: inout JSONPatchWriter
  ) throws {
    try writeJSONPatch(
      from: old.assumingMemoryBound(to: Self.self).pointee, to: new.assumingMemoryBound(to: Self.self).pointee,
      into: &patch)
  }
}

extension Optional: JSONDiffable where Wrapped: JSONDiffable {
  /// As a value (an array element, say) `nil` is `null`: a change to or from it replaces it.
  public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    if let old, let new {
      try Wrapped.writeJSONPatch(from: old, to: new, into: &patch)
    } else {
      try patch.replaceValue(old: old, new: new)
    }
  }
}

extension Array: JSONDiffable where Element: JSONDiffable {
  public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    try patch.writeElementChanges(from: old, to: new)
  }
}

extension ContiguousArray: JSONDiffable where Element: JSONDiffable {
  public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    try patch.writeElementChanges(from: old, to: new)
  }
}

extension Dictionary: JSONDiffable where Key: JSONObjectKey, Value: JSONDiffable {
  /// Members removed (in name order), then added, then changed.
  public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    try patch.writeMemberChanges(
      from: Dictionary<String, Value>(uniqueKeysWithValues: old.map { ($0.key.jsonMemberName, $0.value) }),
      to: Dictionary<String, Value>(uniqueKeysWithValues: new.map { ($0.key.jsonMemberName, $0.value) }))
  }
}
