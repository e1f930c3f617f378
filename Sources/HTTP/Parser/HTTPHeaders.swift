/// Header fields in the order received. Names compare case-insensitively; a name may repeat.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  /// The fields as (name, value) pairs, names as received.
  public private(set) var fields: [(name: String, value: String)] = []

  /// No fields.
  public init() {}

  /// The given fields in order. An array literal of string literals here is laid out once
  /// by the compiler, as a constant: an answer built of it allocates nothing for its headers.
  public init(_ fields: [(name: String, value: String)]) {
    self.fields = fields
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The first value of `name`, or `nil`.
  public subscript(_ name: String) -> String? {
    fields.first { Self.namesEqual($0.name, name) }?.value
  }

  /// Every value of `name`, in order.
  public func values(_ name: String) -> [String] {
    fields.compactMap { Self.namesEqual($0.name, name) ? $0.value : nil }
  }

  /// How many fields are named `name`.
  public func count(of name: String) -> Int {
    var count = 0
    for field in fields where Self.namesEqual(field.name, name) { count += 1 }
    return count
  }

  /// Whether `name` is present.
  public func contains(_ name: String) -> Bool { fields.contains { Self.namesEqual($0.name, name) } }

  /// Makes room for `count` fields in all, so adding that many allocates once.
  mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

  /// Replaces every field named `name` with one field.
  public mutating func set(_ name: String, _ value: String) {
    remove(name)
    fields.append((name, value))
  }

  /// Removes every field named `name`.
  public mutating func remove(_ name: String) { fields.removeAll { Self.namesEqual($0.name, name) } }

  /// Whether a comma-separated header contains `token` (case-insensitive), e.g.
  /// `Connection: keep-alive, Upgrade` contains `upgrade`.
  public func containsToken(_ token: String, in name: String) -> Bool {
    fields.contains { field in
      Self.namesEqual(field.name, name)
        && field.value.split(separator: ",").contains { Self.namesEqual(String($0).trimmingOWS(), token) }
    }
  }

  /// Whether `If-None-Match` names `etag` (a quoted entity tag; weakly, as RFC 9110 has
  /// it for `GET`) or is `*`; `nil` when the header is absent.
  public func ifNoneMatch(matches etag: String) -> Bool? {
    self["If-None-Match"].map { value in
      value.split(separator: ",").contains { candidate in
        let tag = String(candidate).trimmingOWS()
        return tag == "*" || tag == etag || tag == "W/" + etag
      }
    }
  }

  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  /// ASCII case-insensitive comparison, as header names are ASCII tokens.
  static func namesEqual(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return true
      case (let x?, let y?):
        if x != y && lowercased(x) != lowercased(y) { return false }
      default: return false
      }
    }
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
  func trimmingOWS() -> String {
    let bytes = Array(utf8)
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
