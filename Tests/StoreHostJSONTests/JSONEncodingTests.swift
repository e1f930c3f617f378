import Foundation
import Testing

import JSONTestSupport
@testable import StoreHostJSON

/// Direct encoding writes exactly the bytes clients got before it: those of
/// `LegacyPipeline` (Foundation's `JSONEncoder`, then the parser and the old serializer).
@Suite struct JSONEncodingTests {
  private func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let expected = try LegacyPipeline.text(value)
    let direct = String(decoding: try JSONEncoding.encode(value), as: UTF8.self)
    let throughEncoder = String(decoding: try JSONEncoding.encodeThroughEncoder(value, context: nil), as: UTF8.self)
    #expect(direct == expected, sourceLocation: sourceLocation)
    #expect(throughEncoder == expected, sourceLocation: sourceLocation)
  }

  @Test func scalarsOfEveryType() throws {
    try expectSameBytes(Scalars())
    try expectSameBytes(Scalars(int: 0, uint64: 9, double: -0.0, float: 16_777_218, optional: 3, nested: 4))
    try expectSameBytes(Scalars(uint: 0, uint64: UInt64(Int64.max) + 1, nested: nil))
  }

  @Test(arguments: Corpus.strings)
  func stringsWithUnicodeAndEscapes(_ string: String) throws {
    try expectSameBytes([string])
    try expectSameBytes([string: string])
    try expectSameBytes(Scalars(string: string))
  }

  // The random cases yield now and then: tests share the cooperative pool with others
  // that serve real sockets.
  @Test func doubles() async throws {
    var generator = SeededGenerator(seed: 12)
    let doubles = Corpus.doubles + Corpus.doubles.map(-) + Corpus.randomDoubles(count: 2000, using: &generator)
    for (index, double) in doubles.enumerated() {
      try expectSameBytes([double])
      try expectSameBytes(Scalars(double: double))
      if index % 100 == 0 { await Task.yield() }
    }
  }

  @Test func floats() async throws {
    var generator = SeededGenerator(seed: 34)
    for (index, float) in (Corpus.floats + Corpus.randomFloats(count: 2000, using: &generator)).enumerated() {
      try expectSameBytes([float])
      if index % 100 == 0 { await Task.yield() }
    }
  }

  @Test func integersAtTheirLimits() throws {
    try expectSameBytes([Int64.min, Int64.max, 0, -1])
    try expectSameBytes([UInt64.max, UInt64(Int64.max), UInt64(Int64.max) + 1, 0])
    try expectSameBytes([Int8.min, Int8.max])
  }

  @Test func nestedOptionals() throws {
    let values: [Int??] = [nil, .some(nil), 3]
    try expectSameBytes(values)
    try expectSameBytes(values.map { Scalars(nested: $0) })
    try expectSameBytes([String?.none, "x"])
  }

  @Test func enumsWithAndWithoutPayloads() throws {
    let shapes: [Shape] = [.point, .circle(radius: 2.5), .labeled("a\"b", nil), .labeled("", 7), .nested(.nested(nil))]
    try expectSameBytes(shapes)
    try expectSameBytes(Containers(shapes: shapes, filter: .completed, optionalShapes: [nil, .point]))
  }

  @Test func dictionariesAndCollections() throws {
    let containers = Containers(
      strings: Corpus.strings, byName: ["b": 1, "a": 0.5, "é": -1, "B": 1e20, "": 0],
      byNumber: [10: "ten", 9: "nine", -1: "minus", 100: "hundred"],
      byID: [UUID(): 1, UUID(): 2], matrix: [[], [1], [2, 3]], set: [5, 1, 99, -3])
    try expectSameBytes(containers)
    try expectSameBytes(Containers())
  }

  @Test func datesUUIDsDataAndURLs() throws {
    try expectSameBytes([Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 1_764_600_000.123), .distantFuture])
    try expectSameBytes([UUID(), UUID()])
    try expectSameBytes([Data(), Data(repeating: 0xAB, count: 100)])
    try expectSameBytes([URL(string: "file:///tmp/a%20b")!, URL(string: "https://x.y/é?q=1")!])
    try expectSameBytes([Decimal(string: "0.000001")!, Decimal(string: "-12345678901234567890123.5")!, Decimal(7)])
  }

  @Test func handWrittenEncodingAndClasses() throws {
    try expectSameBytes(CustomCoded())
    let parent = EncodableClass()
    parent.child = EncodableClass()
    try expectSameBytes(parent)
  }

  @Test func refusesNumbersJSONCannotHold() {
    #expect(throws: EncodingError.self) { try JSONEncoding.encode([Double.nan]) }
    #expect(throws: EncodingError.self) { try JSONEncoding.encode(Scalars(double: .infinity)) }
    #expect(throws: EncodingError.self) { try JSONEncoding.encodeThroughEncoder([Float.infinity], context: nil) }
  }

  @Test func writerPlacesCommasAndEscapesKeys() throws {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("a\"b")
    writer.beginArray()
    writer.writeNull()
    writer.beginObject()
    writer.endObject()
    writer.write(true)
    writer.endArray()
    try writer.field("z", [1, 2])
    writer.endObject()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a\"b":[null,{},true],"z":[1,2]}"#)
  }
}

/// Every integer width at its extremes: written as `JSONEncoder` writes it, and read back
/// exactly by `JSONDecoder`, this project's parser and its decoder.
@Suite struct IntegerWidthTests {
  private func expectExactRoundTrips<Integer: FixedWidthInteger & Codable>(
    _: Integer.Type, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let values: [Integer] = [.min, .max, 0, .max - 1, .min + 1]
    let written = try JSONEncoding.encode(values)
    #expect(written == Array(try JSONEncoder().encode(values)), sourceLocation: sourceLocation)
    #expect(try JSONDecoder().decode([Integer].self, from: Data(written)) == values, sourceLocation: sourceLocation)
    let parsed = try JSONValue(parsing: written)
    #expect(try parsed.decode(as: [Integer].self) == values, sourceLocation: sourceLocation)
    #expect(parsed.serializedBytes() == written, sourceLocation: sourceLocation)
    let throughFoundation = try JSONDecoder().decode(JSONValue.self, from: Data(written))
    #expect(throughFoundation == parsed, sourceLocation: sourceLocation)
    #expect(Array(try JSONEncoder().encode(throughFoundation)) == written, sourceLocation: sourceLocation)
  }

  @Test func everyWidthRoundTripsExactly() throws {
    try expectExactRoundTrips(Int.self)
    try expectExactRoundTrips(Int8.self)
    try expectExactRoundTrips(Int16.self)
    try expectExactRoundTrips(Int32.self)
    try expectExactRoundTrips(Int64.self)
    try expectExactRoundTrips(UInt.self)
    try expectExactRoundTrips(UInt8.self)
    try expectExactRoundTrips(UInt16.self)
    try expectExactRoundTrips(UInt32.self)
    try expectExactRoundTrips(UInt64.self)
  }

  @Test func aNumberAboveAWidthIsRefusedNotRounded() throws {
    let above = try JSONValue(parsing: Array("[18446744073709551615]".utf8))
    #expect(throws: DecodingError.self) { try above.decode(as: [Int64].self) }
    #expect(try above.decode(as: [Double].self) == [Double(UInt64.max)])
    #expect(throws: DecodingError.self) { try JSONValue(parsing: Array("[18446744073709551616]".utf8)).decode(as: [UInt64].self) }
  }
}
