extension Array where Element == UInt8 {
  /// A copy without spare capacity, when there is much of it (over 64 bytes): for bytes
  /// kept long after they were written, such as a version's JSON or a patch.
  package func trimmed() -> [UInt8] {
    guard capacity > count + 64 else { return self }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = buffer.initialize(fromContentsOf: self)
    }
  }
}
