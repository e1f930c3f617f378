/// RFC 6902 JSON Patch: computing a small patch between two documents, and applying one.
///
/// ```swift
/// let ops = JSONPatch.diff(from: ["count": 0], to: ["count": 1])
/// // [.replace(path: "/count", value: 1)]
/// try JSONPatch.apply(ops, to: ["count": 0])  // ["count": 1]
/// ```
public enum JSONPatch {
  /// The operations that turn `source` into `target`, only `add`, `remove` and `replace`.
  ///
  /// Objects are compared member by member (removals, then additions, then changes, each in
  /// key order). Arrays keep their common prefix and suffix; the differing middle is diffed
  /// element by element, then the surplus is removed (highest index first) or appended.
  /// Values of different kinds, and different scalars, are replaced whole.
  public static func diff(from source: JSONValue, to target: JSONValue) -> [JSONPatchOperation] {
    var operations: [JSONPatchOperation] = []
    diff(source, target, at: .root, into: &operations)
    return operations
  }

  /// Applies `operations` in order to `document`; all or nothing.
  public static func apply(
    _ operations: [JSONPatchOperation], to document: JSONValue
  ) throws(JSONPatchError) -> JSONValue {
    var result = document
    for operation in operations {
      try apply(operation, to: &result)
    }
    return result
  }

  private static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPatchError) {
    switch operation {
    case .add(let path, let value):
      try document.add(value, at: path)
    case .remove(let path):
      try document.remove(at: path)
    case .replace(let path, let value):
      try document.replace(at: path, with: value)
    case .move(let from, let path):
      guard from != path else {
        _ = try document.value(at: from)
        return
      }
      guard !path.tokens.starts(with: from.tokens) else { throw .invalidTarget(path) }
      try document.add(try document.remove(at: from), at: path)
    case .copy(let from, let path):
      try document.add(try document.value(at: from), at: path)
    case .test(let path, let value):
      guard try document.value(at: path) == value else { throw .testFailed(path) }
    }
  }

  private static func diff(
    _ source: JSONValue, _ target: JSONValue, at path: JSONPointer, into operations: inout [JSONPatchOperation]
  ) {
    guard source != target else { return }
    switch (source, target) {
    case (.object(let old), .object(let new)):
      for key in old.keys.sorted(by: JSONStringText.utf8Order) where new[key] == nil {
        operations.append(.remove(path: path.appending(key)))
      }
      for key in new.keys.sorted(by: JSONStringText.utf8Order) {
        if let oldValue = old[key] {
          diff(oldValue, new[key]!, at: path.appending(key), into: &operations)
        } else {
          operations.append(.add(path: path.appending(key), value: new[key]!))
        }
      }
    case (.array(let old), .array(let new)):
      diffArrays(old, new, at: path, into: &operations)
    default:
      operations.append(.replace(path: path, value: target))
    }
  }

  private static func diffArrays(
    _ old: [JSONValue], _ new: [JSONValue], at path: JSONPointer, into operations: inout [JSONPatchOperation]
  ) {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
    let oldMiddle = old.count - prefix - suffix
    let newMiddle = new.count - prefix - suffix
    let paired = min(oldMiddle, newMiddle)
    for offset in 0..<paired {
      let index = prefix + offset
      diff(old[index], new[index], at: path.appending(String(index)), into: &operations)
    }
    // Removing from the highest index down keeps the lower indices valid.
    for index in stride(from: prefix + oldMiddle - 1, through: prefix + paired, by: -1) {
      operations.append(.remove(path: path.appending(String(index))))
    }
    for index in (prefix + paired)..<(prefix + newMiddle) {
      operations.append(.add(path: path.appending(String(index)), value: new[index]))
    }
  }
}
