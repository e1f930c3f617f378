/// A value that refers to a shared box: ``Shared`` or ``SharedReader``.
protocol SharedBoxHolder {
  var sharedBox: AnySharedBox { get }
  /// The current value, which ``customDump(_:)`` shows in place of the holder.
  var dumpedValue: Any { get }
}

extension Shared: SharedBoxHolder {
  var sharedBox: AnySharedBox { reference.box }
  var dumpedValue: Any { wrappedValue }
}

extension SharedReader: SharedBoxHolder {
  var sharedBox: AnySharedBox { reference.box }
  var dumpedValue: Any { wrappedValue }
}

/// Finds the shared values a state holds, by reflection.
enum SharedScan {
  /// The boxes of the shared values anywhere in `value` (in structs, enums, tuples,
  /// optionals and collections; not inside classes or inside shared values), each once.
  /// Parts whose type cannot hold shared values are skipped without being looked into.
  static func boxes(in value: Any) -> [AnySharedBox] {
    var found: [ObjectIdentifier: AnySharedBox] = [:]
    collect(value, into: &found)
    return Array(found.values)
  }

  private static func collect(_ value: Any, into found: inout [ObjectIdentifier: AnySharedBox]) {
    if let holder = value as? any SharedBoxHolder {
      let box = holder.sharedBox
      found[ObjectIdentifier(box)] = box
      return
    }
    guard SharedTypeAnalysis.mayHoldSharedValues(type(of: value)) else { return }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle != .class else { return }
    for child in mirror.children { collect(child.value, into: &found) }
  }
}
