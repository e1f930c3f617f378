import Foundation

import JSONTestSupport
@testable import StoreHostJSON

/// Values that exercise every part of the JSON clients see: Unicode and escapes, numbers of
/// every width, nested optionals, enums, dictionaries, dates, UUIDs, data and URLs.
enum Corpus {
  static let strings = [
    "", "plain", "quote\" backslash\\ slash/", "newline\n return\r tab\t", "nul\u{0} unit\u{1F} del\u{7F}",
    "bell\u{07} backspace\u{08} formfeed\u{0C}", "é ß 中文 ☃", "face😀 flag🇸🇪 family👨‍👩‍👧", "e\u{301} combining",
    "line\u{2028}separator\u{2029}", "~0 ~1 /a/b", String(repeating: "long ", count: 50),
  ]

  static let doubles: [Double] = [
    0, -0.0, 1, -1, 0.1, 0.5, 1.5, 100, 1e15, 1e16, -1e16, 1e17, 9_007_199_254_740_992, 9_007_199_254_740_994,
    123_456_789_012_345_680,
    1e20, 1e21, 1e22, 1e300, 1.7976931348623157e308, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1e-5, 1e-7,
    0.0001,
    12345.678, 9.2233720368547758e18, 1.8446744073709552e19, 0.3, 2.0 / 3.0, -123.456e-10,
  ]

  static let floats: [Float] = [
    0, -0.0, 1, 0.1, 1.0 / 3.0, 16_777_216, 16_777_218, 1e10, 1e-7, 3.4e38, .leastNonzeroMagnitude, 123_456.7, -2.5,
  ]

  static func randomDoubles(count: Int, using generator: inout SeededGenerator) -> [Double] {
    var doubles: [Double] = []
    while doubles.count < count {
      let candidate: Double
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: candidate = Double(bitPattern: generator.next())
      case 1: candidate = Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000
      case 2: candidate = Double(Int64.random(in: .min ... .max, using: &generator))
      default: candidate = Double.random(in: -1e17...1e17, using: &generator).rounded()
      }
      if candidate.isFinite { doubles.append(candidate) }
    }
    return doubles
  }

  static func randomFloats(count: Int, using generator: inout SeededGenerator) -> [Float] {
    var floats: [Float] = []
    while floats.count < count {
      let candidate = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
      if candidate.isFinite { floats.append(candidate) }
    }
    return floats
  }
}

/// Every scalar type, with a hand-written `JSONWritable` conformance of the shape
/// `@ObservableState` generates (members in name order, optionals left out when `nil`).
struct Scalars: Codable, Equatable {
  var bool = true
  var int = -42
  var int8: Int8 = .min
  var int16: Int16 = .max
  var int32: Int32 = -7
  var int64: Int64 = .min
  var uint: UInt = .max
  var uint8: UInt8 = 255
  var uint16: UInt16 = 1
  var uint32: UInt32 = .max
  var uint64: UInt64 = .max
  var double = 0.1
  var float: Float = 0.1
  var string = "text"
  var optional: Int? = nil
  var nested: Int?? = .some(nil)
  var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
  var date = Date(timeIntervalSinceReferenceDate: 12.5)
  var data = Data([0, 1, 2, 254, 255])
  var url = URL(string: "https://example.com/a/b?c=d&e=/f")!
  var decimal = Decimal(string: "12.50")!
}

extension Scalars: JSONWritable {
  func writeJSON(to writer: inout JSONWriter) throws {
    writer.beginObject()
    try writer.field("bool", bool)
    try writer.field("data", data)
    try writer.field("date", date)
    try writer.field("decimal", decimal)
    try writer.field("double", double)
    try writer.field("float", float)
    try writer.field("int", int)
    try writer.field("int16", int16)
    try writer.field("int32", int32)
    try writer.field("int64", int64)
    try writer.field("int8", int8)
    try writer.field("nested", nested)
    try writer.field("optional", optional)
    try writer.field("string", string)
    try writer.field("uint", uint)
    try writer.field("uint16", uint16)
    try writer.field("uint32", uint32)
    try writer.field("uint64", uint64)
    try writer.field("uint8", uint8)
    try writer.field("url", url)
    try writer.field("uuid", uuid)
    writer.endObject()
  }
}

/// An enum with synthesized `Codable`: only ever written through its `Encodable` conformance.
indirect enum Shape: Codable, Equatable {
  case point
  case circle(radius: Double)
  case labeled(String, Int?)
  case nested(Shape?)
}

enum Filter: String, Codable, CaseIterable {
  case all, active, completed
}

/// Containers of writable and of merely `Encodable` values, side by side.
struct Containers: Codable, Equatable {
  var strings: [String] = []
  var shapes: [Shape] = []
  var filter = Filter.all
  var byName: [String: Double] = [:]
  var byNumber: [Int: String] = [:]
  var byID: [UUID: Int] = [:]
  var optionalShapes: [Shape?] = []
  var matrix: [[Int]] = []
  var set: Set<Int> = []
}

extension Containers: JSONWritable {
  func writeJSON(to writer: inout JSONWriter) throws {
    writer.beginObject()
    try writer.field("byID", byID)
    try writer.field("byName", byName)
    try writer.field("byNumber", byNumber)
    try writer.field("filter", filter)
    try writer.field("matrix", matrix)
    try writer.field("optionalShapes", optionalShapes)
    try writer.field("set", set)
    try writer.field("shapes", shapes)
    try writer.field("strings", strings)
    writer.endObject()
  }
}

/// Hand-written `encode(to:)` with nested containers, a super encoder and a skipped value.
struct CustomCoded: Encodable {
  var values: [Int] = [3, 1, 2]

  enum Keys: String, CodingKey { case zeta, alpha, nested, list }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode("last", forKey: .zeta)
    try container.encodeNil(forKey: .alpha)
    var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
    try nested.encode(values, forKey: .list)
    var list = container.nestedUnkeyedContainer(forKey: .list)
    for value in values { try list.encode(Double(value) / 4) }
    try list.encode(Empty())
    let superEncoder = container.superEncoder()
    var single = superEncoder.singleValueContainer()
    try single.encode(Decimal(string: "1e3")!)
  }

  struct Empty: Encodable {}
}

final class EncodableClass: Encodable {
  var name = "class"
  var child: EncodableClass?
}
