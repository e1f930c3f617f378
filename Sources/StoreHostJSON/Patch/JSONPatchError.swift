/// Why a JSON Pointer or a JSON Patch operation could not be parsed or applied.
public enum JSONPatchError: Error, Equatable, CustomStringConvertible {
  /// The text is not an RFC 6901 pointer (it must be empty or start with `/`, and `~` must
  /// be followed by `0` or `1`).
  case invalidPointer(String)
  /// The path leads through a missing member, an index out of range, or a scalar.
  case pathNotFound(JSONPointer)
  /// An array index that is not `-` or a decimal number without leading zeros.
  case invalidIndex(JSONPointer)
  /// `remove` or `move` of the whole document, or a `move` into its own child.
  case invalidTarget(JSONPointer)
  /// A `test` operation found a different value.
  case testFailed(JSONPointer)

  public var description: String {
    switch self {
    case .invalidPointer(let text): "\"\(text)\" is not a JSON pointer"
    case .pathNotFound(let pointer): "nothing at \"\(pointer)\""
    case .invalidIndex(let pointer): "\"\(pointer)\" has an invalid array index"
    case .invalidTarget(let pointer): "\"\(pointer)\" cannot be the target of this operation"
    case .testFailed(let pointer): "the value at \"\(pointer)\" differs from the tested value"
    }
  }
}
