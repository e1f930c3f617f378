import Glibc

/// Collects the RFC 6902 operations between two versions of a value, as JSON bytes, and
/// how much the value's JSON grew or shrank, while ``JSONDiffable`` values walk their parts.
///
/// Only `add`, `remove` and `replace` are written. Parts that compare equal are skipped
/// without being encoded, so the work is proportional to what changed.
///
/// ```swift
/// var patch = JSONPatchWriter()
/// try Counter.State.writeJSONPatch(from: old, to: new, into: &patch)
/// patch.operations  // [{"op":"replace","path":"/count","value":2}]
/// patch.sizeChange  // 0
/// ```
public struct JSONPatchWriter {
  /// The operations written so far as a JSON array, `[...]`; empty before the first.
  private var operationBytes: [UInt8] = []
  /// How many operations were written.
  public private(set) var operationCount = 0
  /// The new value's JSON length minus the old one's, in bytes.
  public private(set) var sizeChange = 0
  /// The context the old value is written with (see ``JSONWriter/context``).
  public let oldContext: (any Sendable)?
  /// The context the new value is written with.
  public let newContext: (any Sendable)?
  /// Whether `==` may call values of a type equal although their JSON differs; such
  /// values are compared by their JSON instead. `nil` when `==` is always reliable.
  private let equalityMayHideChanges: ((Any.Type) -> Bool)?
  /// For a value of a type `equalityMayHideChanges` names whose two versions have the same
  /// bytes: whether it may still have changed (it reads, through a reference, a value that
  /// changed), given its type and its bytes. `nil`: it may.
  private let sameBytesMayHideChanges: ((Any.Type, UnsafeRawPointer) -> Bool)?
  /// The JSON Pointer of the part being diffed, escaped for the inside of a JSON string.
  private var path: [UInt8] = []
  /// Members present in the old and new version of each object being diffed.
  private var memberCounts: [(old: Int, new: Int)] = []

  /// - Parameters:
  ///   - oldContext: The context the old value's parts are written with.
  ///   - newContext: The context the new value's parts are written with.
  ///   - equalityMayHideChanges: For types whose `==` may not see every change between the
  ///     two versions (values read through a reference, say); `nil` when there are none.
  ///   - sameBytesMayHideChanges: For a value of such a type that has the same bytes in both
  ///     versions, given its type and its bytes: whether it may have changed all the same
  ///     (what it reads through a reference changed). `nil`: such values are always diffed.
  ///
  /// `equalityMayHideChanges` is asked about a type each time a value of that type is
  /// compared, so it should answer quickly (from a cache, say).
  public init(
    oldContext: (any Sendable)? = nil, newContext: (any Sendable)? = nil,
    equalityMayHideChanges: ((Any.Type) -> Bool)? = nil,
    sameBytesMayHideChanges: ((Any.Type, UnsafeRawPointer) -> Bool)? = nil
  ) {
    self.oldContext = oldContext
    self.newContext = newContext
    self.equalityMayHideChanges = equalityMayHideChanges
    self.sameBytesMayHideChanges = sameBytesMayHideChanges
    // Room for the paths and objects of a state a few levels deep, made once rather than
    // grown as the diff goes down.
    path.reserveCapacity(Self.reservedPathBytes)
    memberCounts.reserveCapacity(Self.reservedDepth)
  }

  private static let reservedPathBytes = 64
  private static let reservedDepth = 8
  /// The room the first operation makes for the operations, rather than growing as it writes.
  private static let reservedOperationBytes = 256

  /// The operations as a JSON array: `[{"op":...},...]`, kept whole as they are written.
  /// A patch is kept as long as its version is (by streams' recent events, by a history), so
  /// the room reserved for writing it is not: a small patch is copied to its size.
  public var operations: [UInt8] { operationCount > 0 ? operationBytes.trimmed() : Self.noOperations }

  private static let noOperations = Array("[]".utf8)

  // MARK: Comparing

  /// Whether `old` and `new` certainly have the same JSON: the same bytes (a part the
  /// change left alone still shares its buffers), or else equal by `==`.
  @inlinable public func isUnchanged<Value: Equatable>(_ old: Value, _ new: Value) -> Bool {
    if Self.haveSameBytes(old, new) { return !mayHideChanges(Value.self) || !mayHaveChangedDespiteSameBytes(new) }
    return !mayHideChanges(Value.self) && old == new
  }

  /// For a value whose type may hide changes and whose bytes did not change: whether the
  /// `sameBytesMayHideChanges` check finds it may have changed (or there is no such check).
  @usableFromInline func mayHaveChangedDespiteSameBytes<Value>(_ value: Value) -> Bool {
    guard let sameBytesMayHideChanges else { return true }
    return withUnsafeBytes(of: value) { bytes in
      bytes.baseAddress.map { sameBytesMayHideChanges(Value.self, $0) } ?? false
    }
  }

  /// Whether two values are the same bytes; for a value, its inline part: what it keeps in
  /// buffers and boxes is the same when their references are.
  @inlinable static func haveSameBytes<Value>(_ old: Value, _ new: Value) -> Bool {
    withUnsafeBytes(of: old) { old in
      withUnsafeBytes(of: new) { new in
        guard let oldBytes = old.baseAddress, let newBytes = new.baseAddress else { return true }
        return memcmp(oldBytes, newBytes, old.count) == 0
      }
    }
  }

  @usableFromInline func mayHideChanges(_ type: Any.Type) -> Bool {
    equalityMayHideChanges?(type) ?? false
  }

  /// The old value's JSON.
  public func oldJSON<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    try JSONEncoding.encode(value, context: oldContext)
  }

  /// The new value's JSON.
  public func newJSON<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    try JSONEncoding.encode(value, context: newContext)
  }

  /// The old value's JSON, through its own conformance.
  public func oldJSON<Value: JSONWritable>(_ value: Value) throws -> [UInt8] {
    var writer = JSONWriter(context: oldContext, capacity: 32)
    try value.writeJSON(to: &writer)
    return writer.bytes
  }

  /// The new value's JSON, through its own conformance.
  public func newJSON<Value: JSONWritable>(_ value: Value) throws -> [UInt8] {
    var writer = JSONWriter(context: newContext, capacity: 32)
    try value.writeJSON(to: &writer)
    return writer.bytes
  }

  // MARK: Objects

  /// Starts diffing an object's members.
  public mutating func beginObject() {
    memberCounts.append((0, 0))
  }

  /// Ends the object: accounts for the commas between its members.
  public mutating func endObject() {
    let counts = memberCounts.removeLast()
    sizeChange += Self.commas(counts.new) - Self.commas(counts.old)
  }

  /// A member of a struct, present in both versions.
  @inlinable public mutating func field<Value: JSONDiffable>(_ name: StaticString, _ old: Value, _ new: Value) throws {
    countMember(old: true, new: true)
    guard !isUnchanged(old, new) else { return }
    try nested(name) { try Value.writeJSONPatch(from: old, to: new, into: &$0) }
  }

  /// An optional member: left out when `nil`, as synthesized `Codable` leaves it out.
  @inlinable public mutating func field<Value: JSONDiffable>(_ name: StaticString, _ old: Value?, _ new: Value?) throws {
    countMember(old: old != nil, new: new != nil)
    if let old, let new {
      guard !isUnchanged(old, new) else { return }
      try nested(name) { try Value.writeJSONPatch(from: old, to: new, into: &$0) }
    } else {
      try changePresence(name, old: old, new: new)
    }
  }

  /// A member written by its own ``JSONWritable`` conformance, replaced whole when it changes.
  @inlinable public mutating func field<Value: JSONWritable & Equatable>(_ name: StaticString, _ old: Value, _ new: Value) throws {
    countMember(old: true, new: true)
    guard !isUnchanged(old, new) else { return }
    try nested(name) { try $0.replaceValue(old: old, new: new) }
  }

  /// An optional member written by its own ``JSONWritable`` conformance, left out when `nil`.
  @inlinable public mutating func field<Value: JSONWritable & Equatable>(
    _ name: StaticString, _ old: Value?, _ new: Value?
  ) throws {
    countMember(old: old != nil, new: new != nil)
    if let old, let new {
      guard !isUnchanged(old, new) else { return }
      try nested(name) { try $0.replaceValue(old: old, new: new) }
    } else {
      try changePresence(name, old: old, new: new)
    }
  }

  /// A member whose value is replaced whole when it changes.
  @inlinable public mutating func field<Value: Encodable & Equatable>(_ name: StaticString, _ old: Value, _ new: Value) throws {
    countMember(old: true, new: true)
    guard !isUnchanged(old, new) else { return }
    try nested(name) { try $0.replaceValue(old: old, new: new) }
  }

  /// An optional member replaced whole when it changes, left out when `nil`.
  @inlinable public mutating func field<Value: Encodable & Equatable>(
    _ name: StaticString, _ old: Value?, _ new: Value?
  ) throws {
    countMember(old: old != nil, new: new != nil)
    if let old, let new {
      guard !isUnchanged(old, new) else { return }
      try nested(name) { try $0.replaceValue(old: old, new: new) }
    } else {
      try changePresence(name, old: old, new: new)
    }
  }

  /// A member that is not `Equatable`: compared by its JSON.
  public mutating func field<Value: Encodable>(_ name: StaticString, _ old: Value, _ new: Value) throws {
    countMember(old: true, new: true)
    try nested(name) { try $0.replaceValue(old: old, new: new) }
  }

  /// An optional member that is not `Equatable`: compared by its JSON, left out when `nil`.
  public mutating func field<Value: Encodable>(_ name: StaticString, _ old: Value?, _ new: Value?) throws {
    countMember(old: old != nil, new: new != nil)
    if let old, let new {
      try nested(name) { try $0.replaceValue(old: old, new: new) }
    } else {
      try changePresence(name, old: old, new: new)
    }
  }

  @usableFromInline mutating func countMember(old: Bool, new: Bool) {
    let last = memberCounts.count - 1
    if old { memberCounts[last].old += 1 }
    if new { memberCounts[last].new += 1 }
  }

  /// Adds or removes a member that is present in only one version.
  @usableFromInline mutating func changePresence<Value: Encodable>(_ name: StaticString, old: Value?, new: Value?) throws {
    let keyLength = name.utf8CodeUnitCount + 3  // "name":
    if let new {
      let json = try newJSON(new)
      sizeChange += keyLength + json.count
      nested(name) { $0.writeOperation("add", value: json) }
    } else if let old {
      sizeChange -= keyLength + (try oldJSON(old)).count
      nested(name) { $0.writeOperation("remove", value: nil) }
    }
  }

  /// Diffs the members of two objects given as dictionaries keyed by member name: removed
  /// members (in name order), then added ones, then changed ones.
  public mutating func writeMemberChanges<Value: JSONDiffable>(
    from old: [String: Value], to new: [String: Value]
  ) throws {
    guard !isUnchanged(old, new) else { return }
    sizeChange += Self.commas(new.count) - Self.commas(old.count)
    for name in old.keys.sorted(by: JSONStringText.utf8Order) where new[name] == nil {
      sizeChange -= Self.memberNameLength(name) + (try oldJSON(old[name]!)).count
      nested(token: name) { $0.writeOperation("remove", value: nil) }
    }
    for name in new.keys.sorted(by: JSONStringText.utf8Order) {
      if let oldValue = old[name] {
        let newValue = new[name]!
        guard !isUnchanged(oldValue, newValue) else { continue }
        try nested(token: name) { try Value.writeJSONPatch(from: oldValue, to: newValue, into: &$0) }
      } else {
        let json = try newJSON(new[name]!)
        sizeChange += Self.memberNameLength(name) + json.count
        nested(token: name) { $0.writeOperation("add", value: json) }
      }
    }
  }

  // MARK: Arrays

  /// Diffs two arrays element by element: the common prefix and suffix are kept, the
  /// differing middle is diffed pairwise, then the surplus removed (highest index first)
  /// or appended.
  public mutating func writeElementChanges<Element: JSONDiffable>(from old: [Element], to new: [Element]) throws {
    try old.withUnsafeBufferPointer { old in
      try new.withUnsafeBufferPointer { new in try writeElementChanges(from: old, to: new) }
    }
  }

  /// Diffs two contiguous arrays like ``writeElementChanges(from:to:)-(_,[Element])``.
  public mutating func writeElementChanges<Element: JSONDiffable>(
    from old: ContiguousArray<Element>, to new: ContiguousArray<Element>
  ) throws {
    try old.withUnsafeBufferPointer { old in
      try new.withUnsafeBufferPointer { new in try writeElementChanges(from: old, to: new) }
    }
  }

  private mutating func writeElementChanges<Element: JSONDiffable>(
    from old: UnsafeBufferPointer<Element>, to new: UnsafeBufferPointer<Element>
  ) throws {
    let reliable = !mayHideChanges(Element.self)
    if reliable, old.baseAddress == new.baseAddress, old.count == new.count { return }
    let shorter = min(old.count, new.count)
    var prefix = 0
    var suffix = 0
    if reliable {
      while prefix < shorter, Self.equal(old, prefix, new, prefix) { prefix += 1 }
      while suffix < shorter - prefix, Self.equal(old, old.count - 1 - suffix, new, new.count - 1 - suffix) { suffix += 1 }
      if prefix == old.count && prefix == new.count { return }
    }
    sizeChange += Self.commas(new.count) - Self.commas(old.count)
    let oldMiddle = old.count - prefix - suffix
    let newMiddle = new.count - prefix - suffix
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<(prefix + paired) {
      if reliable, Self.equal(old, index, new, index) { continue }
      try nested(index: index) { try Element.writeJSONPatch(from: old[index], to: new[index], into: &$0) }
    }
    // Removing from the highest index down keeps the lower indices valid.
    for index in stride(from: prefix + oldMiddle - 1, through: prefix + paired, by: -1) {
      sizeChange -= (try oldJSON(old[index])).count
      nested(index: index) { $0.writeOperation("remove", value: nil) }
    }
    for index in (prefix + paired)..<(prefix + newMiddle) {
      let json = try newJSON(new[index])
      sizeChange += json.count
      nested(index: index) { $0.writeOperation("add", value: json) }
    }
  }

  /// Whether two elements are equal: the same bytes (a copy of the element, as most are
  /// between two versions of an array), or else `==`. Comparing bytes first spares the
  /// generic `==` a copy of each element.
  private static func equal<Element: Equatable>(
    _ old: UnsafeBufferPointer<Element>, _ oldIndex: Int, _ new: UnsafeBufferPointer<Element>, _ newIndex: Int
  ) -> Bool {
    let size = MemoryLayout<Element>.size
    let oldElement = UnsafeRawPointer(old.baseAddress! + oldIndex)
    let newElement = UnsafeRawPointer(new.baseAddress! + newIndex)
    return memcmp(oldElement, newElement, size) == 0 || old[oldIndex] == new[newIndex]
  }

  // MARK: Values

  /// Replaces the value at the current path when its JSON differs.
  public mutating func replaceValue<Value: Encodable>(old: Value, new: Value) throws {
    replace(oldJSON: try oldJSON(old), newJSON: try newJSON(new))
  }

  /// Replaces the value at the current path when its JSON differs.
  public mutating func replaceValue<Value: JSONWritable>(old: Value, new: Value) throws {
    replace(oldJSON: try oldJSON(old), newJSON: try newJSON(new))
  }

  private mutating func replace(oldJSON: [UInt8], newJSON: [UInt8]) {
    guard oldJSON != newJSON else { return }
    sizeChange += newJSON.count - oldJSON.count
    writeOperation("replace", value: newJSON)
  }

  /// Replaces the whole value with `new`'s JSON, the old one being `oldLength` bytes long.
  public mutating func replaceWhole(newJSON: [UInt8], oldLength: Int) {
    sizeChange += newJSON.count - oldLength
    writeOperation("replace", value: newJSON)
  }

  // MARK: Paths and operations

  @usableFromInline mutating func nested<R>(_ name: StaticString, _ body: (inout JSONPatchWriter) throws -> R) rethrows -> R {
    let start = path.count
    path.append(UInt8(ascii: "/"))
    name.withUTF8Buffer { path.append(contentsOf: $0) }
    defer { path.removeSubrange(start...) }
    return try body(&self)
  }

  private mutating func nested<R>(token: String, _ body: (inout JSONPatchWriter) throws -> R) rethrows -> R {
    let start = path.count
    path.append(UInt8(ascii: "/"))
    var escaped: [UInt8] = []
    JSONStringText.appendPointerToken(token, to: &escaped)
    escaped.withUnsafeBufferPointer { JSONStringText.appendEscaped($0, to: &path) }
    defer { path.removeSubrange(start...) }
    return try body(&self)
  }

  private mutating func nested<R>(index: Int, _ body: (inout JSONPatchWriter) throws -> R) rethrows -> R {
    let start = path.count
    path.append(UInt8(ascii: "/"))
    JSONNumberText.appendDecimal(Int64(index), to: &path)
    defer { path.removeSubrange(start...) }
    return try body(&self)
  }

  /// `{"op":"<op>","path":"<current path>","value":<value>}`, without `value` when `nil`.
  @usableFromInline mutating func writeOperation(_ op: StaticString, value: [UInt8]?) {
    if operationCount > 0 {
      operationBytes[operationBytes.count - 1] = UInt8(ascii: ",")
    } else {
      operationBytes.reserveCapacity(Self.reservedOperationBytes)
      operationBytes.append(UInt8(ascii: "["))
    }
    operationCount += 1
    operationBytes.append(contentsOf: #"{"op":""#.utf8)
    op.withUTF8Buffer { operationBytes.append(contentsOf: $0) }
    operationBytes.append(contentsOf: #"","path":""#.utf8)
    operationBytes.append(contentsOf: path)
    operationBytes.append(UInt8(ascii: "\""))
    if let value {
      operationBytes.append(contentsOf: #","value":"#.utf8)
      operationBytes.append(contentsOf: value)
    }
    operationBytes.append(contentsOf: "}]".utf8)
  }

  private static func commas(_ count: Int) -> Int { max(count - 1, 0) }

  /// The bytes of `"name":` for a member name.
  private static func memberNameLength(_ name: String) -> Int {
    var writer = JSONWriter()
    writer.key(name)
    return writer.bytes.count
  }
}
