import Foundation

/// A value that writes its own JSON in one pass, with exactly the bytes its `Encodable`
/// conformance gives through ``JSONEncoding``.
///
/// `@ObservableState` writes this conformance for a `Codable` state struct, and
/// `@CasePathable` for an action enum whose `encode(to:)` it writes; standard
/// library and Foundation types have it here. Anything else is written through its
/// `Encodable` conformance instead, a little slower.
public protocol JSONWritable: Encodable {
  /// Writes this value as one JSON value.
  func writeJSON(to writer: inout JSONWriter) throws

  /// Writes the value of this type at `value` where it is: a caller that knows the type only
  /// at run time reaches ``writeJSON(to:)`` without casting or boxing the value. Every type
  /// has it from ``writeJSON(to:)``, which loads the value from its address (in code
  /// specialized for the type, a copy that retains what the value holds).
  static func writeJSON(ofValueAt value: UnsafeRawPointer, to writer: inout JSONWriter) throws
}

extension JSONWritable {
  public static func writeJSON(ofValueAt value: UnsafeRawPointer, to writer: inout JSONWriter) throws {
    try value.assumingMemoryBound(to: Self.self).pointee.writeJSON(to: &writer)
  }
}

extension JSONWriter {
  /// Writes `value` through its own ``JSONWritable`` conformance.
  @inlinable public mutating func write<Value: JSONWritable>(_ value: Value) throws {
    try value.writeJSON(to: &self)
  }

  /// Writes `value` through its `Encodable` conformance, with the semantics of
  /// Foundation's `JSONEncoder` (dates as seconds since 2001, data as Base64). A value that
  /// encodes one scalar (an enum with raw values, say) is written without building a tree.
  public mutating func write<Value: Encodable>(_ value: Value) throws {
    if let scalar = try ScalarEncoder.scalar(value, context: context) {
      scalar.writeJSON(to: &self)
    } else {
      writeRaw(try JSONEncoding.encodeThroughEncoder(value, context: context))
    }
  }

  /// Writes an object member: `"name":value`.
  @inlinable public mutating func field<Value: JSONWritable>(_ name: StaticString, _ value: Value) throws {
    key(name)
    try value.writeJSON(to: &self)
  }

  /// Writes an object member, or nothing when `value` is `nil` (as synthesized `Codable`
  /// leaves out `nil` properties).
  @inlinable public mutating func field<Value: JSONWritable>(_ name: StaticString, _ value: Value?) throws {
    guard let value else { return }
    key(name)
    try value.writeJSON(to: &self)
  }

  /// Writes an object member through the value's `Encodable` conformance.
  public mutating func field<Value: Encodable>(_ name: StaticString, _ value: Value) throws {
    key(name)
    try write(value)
  }

  /// Writes an object member through its `Encodable` conformance, or nothing when `nil`.
  public mutating func field<Value: Encodable>(_ name: StaticString, _ value: Value?) throws {
    guard let value else { return }
    key(name)
    try write(value)
  }
}

// MARK: Scalars

extension Bool: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(self) }
}

extension String: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(self) }
}

extension Double: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) throws { try writer.write(self) }
}

extension Float: JSONWritable {
  /// Written as `JSONEncoder` writes it (its shortest decimal text) read back as a JSON
  /// number: `Float(0.1)` is `0.1`, `Float(1e10)` is `10000000000.0`.
  public func writeJSON(to writer: inout JSONWriter) throws {
    try JSONValue(float: self).writeJSON(to: &writer)
  }
}

extension Int: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension Int8: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension Int16: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension Int32: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension Int64: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(self) }
}

extension UInt: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(UInt64(self)) }
}

extension UInt8: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension UInt16: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension UInt32: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(Int64(self)) }
}

extension UInt64: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.write(self) }
}

// MARK: Foundation

extension UUID: JSONWritable {
  /// The upper-case `uuidString`.
  public func writeJSON(to writer: inout JSONWriter) {
    writer.writeUUID(uuid)
  }
}

extension Date: JSONWritable {
  /// Seconds since 2001-01-01, as `Date`'s own `Encodable` conformance writes it.
  public func writeJSON(to writer: inout JSONWriter) throws {
    try writer.write(timeIntervalSinceReferenceDate)
  }
}

extension Data: JSONWritable {
  /// A Base64 string, as `JSONEncoder` writes data.
  public func writeJSON(to writer: inout JSONWriter) {
    writer.write(base64EncodedString())
  }
}

extension URL: JSONWritable {
  /// The absolute string, as `JSONEncoder` writes URLs.
  public func writeJSON(to writer: inout JSONWriter) {
    writer.write(absoluteString)
  }
}

extension Decimal: JSONWritable {
  /// The number its description denotes, as this project reads and writes numbers.
  public func writeJSON(to writer: inout JSONWriter) throws {
    try JSONValue(numberText: description).writeJSON(to: &writer)
  }
}

// MARK: Collections

extension Optional: JSONWritable where Wrapped: JSONWritable {
  /// `null`, or the wrapped value.
  @inlinable public func writeJSON(to writer: inout JSONWriter) throws {
    if let self { try self.writeJSON(to: &writer) } else { writer.writeNull() }
  }
}

extension Array: JSONWritable where Element: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) throws {
    try writer.writeElements(self)
  }
}

extension ContiguousArray: JSONWritable where Element: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) throws {
    try writer.writeElements(self)
  }
}

extension Set: JSONWritable where Element: JSONWritable {
  /// The elements in the set's own order, as `Encodable` writes them.
  @inlinable public func writeJSON(to writer: inout JSONWriter) throws {
    try writer.writeElements(self)
  }
}

/// A dictionary key that `Encodable` writes as an object member name: `String` and `Int`.
public protocol JSONObjectKey: Hashable, Encodable {
  /// The member name.
  var jsonMemberName: String { get }
}

extension String: JSONObjectKey {
  public var jsonMemberName: String { self }
}

extension Int: JSONObjectKey {
  public var jsonMemberName: String { String(self) }
}

extension Dictionary: JSONWritable where Key: JSONObjectKey, Value: JSONWritable {
  /// An object, members sorted by their names' UTF-8 bytes.
  public func writeJSON(to writer: inout JSONWriter) throws {
    writer.beginObject()
    for (name, value) in map({ ($0.key.jsonMemberName, $0.value) }).sorted(by: { JSONStringText.utf8Order($0.0, $1.0) }) {
      writer.key(name)
      try value.writeJSON(to: &writer)
    }
    writer.endObject()
  }
}

extension JSONWriter {
  /// Writes `elements` as an array.
  @inlinable public mutating func writeElements<Elements: Sequence>(_ elements: Elements) throws
  where Elements.Element: JSONWritable {
    beginArray()
    for element in elements { try element.writeJSON(to: &self) }
    endArray()
  }

  /// Writes a UUID's upper-case string form without making a `String`.
  mutating func writeUUID(_ uuid: uuid_t) {
    valueStart()
    let hex: StaticString = "0123456789ABCDEF"
    hex.withUTF8Buffer { digits in
      withUnsafeBytes(of: uuid) { raw in
        buffer.append(UInt8(ascii: "\""))
        for (index, byte) in raw.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 { buffer.append(UInt8(ascii: "-")) }
          buffer.append(digits[Int(byte >> 4)])
          buffer.append(digits[Int(byte & 0x0F)])
        }
        buffer.append(UInt8(ascii: "\""))
      }
    }
  }
}
