extension JSONValue {
  /// The value `pointer` refers to.
  public func value(at pointer: JSONPointer) throws(JSONPatchError) -> JSONValue {
    var current = self
    for token in pointer.tokens {
      switch current {
      case .object(let members):
        guard let member = members[token] else { throw .pathNotFound(pointer) }
        current = member
      case .array(let elements):
        current = elements[try Self.index(token, in: elements.count, pointer: pointer)]
      default:
        throw .pathNotFound(pointer)
      }
    }
    return current
  }

  /// Sets the value at `pointer`: the whole document, an object member (added or replaced), or
  /// an array element inserted before the index (`-` appends).
  mutating func add(_ value: JSONValue, at pointer: JSONPointer) throws(JSONPatchError) {
    guard !pointer.tokens.isEmpty else {
      self = value
      return
    }
    try modifyParent(of: pointer) { (members, key) throws(JSONPatchError) in
      members[key] = value
    } array: { (elements, token) throws(JSONPatchError) in
      let index = token == "-" ? elements.count : try Self.index(token, in: elements.count + 1, pointer: pointer)
      elements.insert(value, at: index)
    }
  }

  /// Removes the member or element at `pointer` and returns it.
  @discardableResult
  mutating func remove(at pointer: JSONPointer) throws(JSONPatchError) -> JSONValue {
    guard !pointer.tokens.isEmpty else { throw .invalidTarget(pointer) }
    return try modifyParent(of: pointer) { (members, key) throws(JSONPatchError) in
      guard let removed = members.removeValue(forKey: key) else { throw .pathNotFound(pointer) }
      return removed
    } array: { (elements, token) throws(JSONPatchError) in
      elements.remove(at: try Self.index(token, in: elements.count, pointer: pointer))
    }
  }

  /// Replaces the existing value at `pointer`.
  mutating func replace(at pointer: JSONPointer, with value: JSONValue) throws(JSONPatchError) {
    guard !pointer.tokens.isEmpty else {
      self = value
      return
    }
    try modifyParent(of: pointer) { (members, key) throws(JSONPatchError) in
      guard members[key] != nil else { throw .pathNotFound(pointer) }
      members[key] = value
    } array: { (elements, token) throws(JSONPatchError) in
      elements[try Self.index(token, in: elements.count, pointer: pointer)] = value
    }
  }

  /// Runs `object` or `array`, with the last token of `pointer`, on the storage of the
  /// container that pointer ends in. Every level is detached from its parent while it changes,
  /// so no container is copied.
  private mutating func modifyParent<R>(
    of pointer: JSONPointer,
    object: (inout [String: JSONValue], String) throws(JSONPatchError) -> R,
    array: (inout [JSONValue], String) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    let last = pointer.tokens[pointer.tokens.count - 1]
    return try withDescendant(at: pointer.tokens.dropLast(), pointer: pointer) { (parent) throws(JSONPatchError) -> R in
      switch parent {
      case .object(var members):
        parent = .null
        defer { parent = .object(members) }
        return try object(&members, last)
      case .array(var elements):
        parent = .null
        defer { parent = .array(elements) }
        return try array(&elements, last)
      default:
        throw .pathNotFound(pointer)
      }
    }
  }

  /// Runs `body` in place on the value `tokens` lead to, detaching each level on the way.
  private mutating func withDescendant<R>(
    at tokens: ArraySlice<String>, pointer: JSONPointer, _ body: (inout JSONValue) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard let token = tokens.first else { return try body(&self) }
    switch self {
    case .object(var members):
      self = .null
      defer { self = .object(members) }
      guard var child = members.removeValue(forKey: token) else { throw .pathNotFound(pointer) }
      defer { members[token] = child }
      return try child.withDescendant(at: tokens.dropFirst(), pointer: pointer, body)
    case .array(var elements):
      let index = try Self.index(token, in: elements.count, pointer: pointer)
      var child = elements[index]
      self = .null
      elements[index] = .null
      defer {
        elements[index] = child
        self = .array(elements)
      }
      return try child.withDescendant(at: tokens.dropFirst(), pointer: pointer, body)
    default:
      throw .pathNotFound(pointer)
    }
  }

  /// An RFC 6901 array index (`0` or digits without a leading zero) below `count`.
  private static func index(_ token: String, in count: Int, pointer: JSONPointer) throws(JSONPatchError) -> Int {
    let utf8 = token.utf8
    guard let first = utf8.first, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      first != UInt8(ascii: "0") || utf8.count == 1, let index = Int(token)
    else { throw .invalidIndex(pointer) }
    guard index < count else { throw .pathNotFound(pointer) }
    return index
  }
}
