/// One RFC 6902 operation, encoded as `{"op":"replace","path":"/counter/count","value":1}`.
public enum JSONPatchOperation: Hashable, Sendable {
  /// Inserts into an array (`-` appends) or sets an object member, adding or replacing it.
  case add(path: JSONPointer, value: JSONValue)
  /// Removes an existing member or element.
  case remove(path: JSONPointer)
  /// Replaces an existing value.
  case replace(path: JSONPointer, value: JSONValue)
  /// Removes the value at `from` and adds it at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Fails the patch unless the value at `path` equals `value` (`1` and `1.0` differ here).
  case test(path: JSONPointer, value: JSONValue)
}

extension JSONPatchOperation: Codable {
  private enum CodingKeys: String, CodingKey {
    case op, path, value, from
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let op = try container.decode(String.self, forKey: .op)
    let path = try container.decode(JSONPointer.self, forKey: .path)
    func value() throws -> JSONValue {
      guard container.contains(.value) else {
        throw DecodingError.keyNotFound(
          CodingKeys.value,
          .init(codingPath: container.codingPath, debugDescription: "\"\(op)\" needs a \"value\""))
      }
      return try container.decode(JSONValue.self, forKey: .value)
    }
    func from() throws -> JSONPointer { try container.decode(JSONPointer.self, forKey: .from) }
    switch op {
    case "add": self = .add(path: path, value: try value())
    case "remove": self = .remove(path: path)
    case "replace": self = .replace(path: path, value: try value())
    case "move": self = .move(from: try from(), path: path)
    case "copy": self = .copy(from: try from(), path: path)
    case "test": self = .test(path: path, value: try value())
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .op, in: container,
        debugDescription: "unknown op \"\(op)\"; expected add, remove, replace, move, copy or test")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
      try container.encode(name, forKey: .op)
      try container.encode(path, forKey: .path)
      try container.encode(value, forKey: .value)
    case .remove(let path):
      try container.encode(name, forKey: .op)
      try container.encode(path, forKey: .path)
    case .move(let from, let path), .copy(let from, let path):
      try container.encode(name, forKey: .op)
      try container.encode(from, forKey: .from)
      try container.encode(path, forKey: .path)
    }
  }

  /// The `op` member: `add`, `remove`, `replace`, `move`, `copy` or `test`.
  public var name: String {
    switch self {
    case .add: "add"
    case .remove: "remove"
    case .replace: "replace"
    case .move: "move"
    case .copy: "copy"
    case .test: "test"
    }
  }
}
