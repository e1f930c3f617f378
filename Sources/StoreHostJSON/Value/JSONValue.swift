/// A JSON document as a value: what the session layer diffs, patches and persists.
///
/// Integers stay exact: a number written without fraction or exponent that fits in `Int64`
/// is an ``int(_:)``, one above `Int64.max` that fits in `UInt64` is a ``uint(_:)``; any
/// other number is a ``double(_:)``. Objects are dictionaries, and
/// serialization writes their keys sorted, so equal values always give equal bytes.
///
/// ```swift
/// let state = try JSONValue(parsing: Data(#"{"counter":{"count":1}}"#.utf8))
/// state["counter"]?["count"]  // .int(1)
/// ```
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number without fraction or exponent that fits in `Int64`.
  case int(Int64)
  /// A number without fraction or exponent above `Int64.max` that fits in `UInt64`; smaller
  /// whole numbers are always ``int(_:)``, so equal numbers are equal values.
  case uint(UInt64)
  /// Any other number. Non-finite values are not JSON and serialize as `null`.
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The member named `key` when this is an object, else `nil`. Setting it on an object
  /// adds, replaces or (with `nil`) removes the member; on anything else it does nothing.
  public subscript(key: String) -> JSONValue? {
    get {
      guard case .object(let members) = self else { return nil }
      return members[key]
    }
    set {
      guard case .object(var members) = self else { return }
      self = .null
      members[key] = newValue
      self = .object(members)
    }
  }

  /// Renames the member `name` of this object to `newName`, replacing a member of that
  /// name; does nothing when there is no member `name` or this is not an object.
  public mutating func renameMember(_ name: String, to newName: String) {
    guard let value = self[name] else { return }
    self[name] = nil
    self[newName] = value
  }

  /// The element at `index` when this is an array and the index is in range, else `nil`.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Later duplicates of a key win.
  public init(dictionaryLiteral members: (String, JSONValue)...) {
    self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
  }
}
