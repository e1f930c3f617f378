import Foundation
import Testing

@testable import StoreHostJSON

@Suite struct JSONValueTests {
  private func parse(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: Data(text.utf8))
  }

  @Test func parsesEveryKindOfValue() throws {
    let value = try parse(#" {"a": [1, -2.5, true, false, null, "x"], "b": {}} "#)
    #expect(value == ["a": [1, -2.5, true, false, nil, "x"], "b": [:]])
  }

  @Test func keepsIntegersExact() throws {
    #expect(try parse("9007199254740993") == .int(9_007_199_254_740_993))
    #expect(try parse("-9223372036854775808") == .int(.min))
    #expect(try parse("1.0") == .double(1))
    #expect(try parse("1e2") == .double(100))
    #expect(try parse("9223372036854775808") == .uint(9_223_372_036_854_775_808))
    #expect(try parse("18446744073709551615") == .uint(.max))
    #expect(try parse("18446744073709551616") == .double(18_446_744_073_709_551_616))
    #expect(try parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808))
    #expect(try parse("18446744073709551615").jsonString == "18446744073709551615")
  }

  @Test func serializesCompactlyWithSortedKeys() {
    let value: JSONValue = ["b": [1, 2.5, "x"], "a": ["z": nil, "y": true], "é": false, "B": 0]
    #expect(value.jsonString == #"{"B":0,"a":{"y":true,"z":null},"b":[1,2.5,"x"],"é":false}"#)
  }

  @Test func equalValuesGiveEqualBytes() throws {
    let first = try parse(#"{"x": 1, "y": {"b": 2, "a": 3}}"#)
    let second = try parse(#"{"y": {"a": 3, "b": 2}, "x": 1}"#)
    #expect(first.serialized() == second.serialized())
  }

  @Test func escapesStringsAndDecodesEscapes() throws {
    let text = "quote\" backslash\\ newline\n tab\t bell\u{07} slash/ snow☃ face😀"
    let value = JSONValue.string(text)
    #expect(value.jsonString == #""quote\" backslash\\ newline\n tab\t bell\u0007 slash/ snow☃ face😀""#)
    #expect(try parse(value.jsonString) == value)
    #expect(try parse(#""\u00e9\ud83d\ude00\/\b\f\r""#) == "é😀/\u{08}\u{0C}\r")
  }

  @Test func roundTripsDoubles() throws {
    for double in [0.1, -0.0, 1e300, .leastNonzeroMagnitude, 123456.789, 1e21] {
      #expect(try parse(JSONValue.double(double).jsonString) == .double(double))
    }
    #expect(JSONValue.double(.nan).jsonString == "null")
  }

  @Test(arguments: [
    ("", JSONParseError.Reason.unexpectedEnd),
    ("[1,]", .unexpectedByte(UInt8(ascii: "]"))),
    ("{\"a\":1,}", .unexpectedByte(UInt8(ascii: "}"))),
    ("01", .trailingBytes),
    ("1.", .invalidNumber),
    ("-", .invalidNumber),
    ("1e999", .invalidNumber),
    ("\"\\x\"", .invalidEscape),
    ("\"\\ud800\"", .invalidEscape),
    ("\"\\udc00\"", .invalidEscape),
    ("\"a\nb\"", .controlCharacterInString),
    ("{\"a\":1,\"a\":2}", .duplicateKey("a")),
    ("[1] 2", .trailingBytes),
    ("tru", .unexpectedEnd),
    ("nul1", .unexpectedByte(UInt8(ascii: "1"))),
  ])
  func rejectsInvalidJSON(text: String, reason: JSONParseError.Reason) {
    let error = #expect(throws: JSONParseError.self) { try parse(text) }
    #expect(error?.reason == reason)
  }

  @Test func rejectsInvalidUTF8() {
    #expect(throws: JSONParseError(reason: .invalidUTF8, offset: 1)) {
      try JSONValue(parsing: Data([0x22, 0xC3, 0x28, 0x22]))
    }
  }

  @Test func limitsNesting() throws {
    let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
    #expect(try JSONValue(parsing: Data(deep.utf8), maxDepth: 10)[0] == [[[[[[[[[]]]]]]]]])
    #expect(throws: JSONParseError(reason: .tooDeep(limit: 9), offset: 9)) {
      try JSONValue(parsing: Data(deep.utf8), maxDepth: 9)
    }
    let hostile = String(repeating: "[", count: 100_000)
    #expect(throws: JSONParseError.self) { try parse(hostile) }
  }

  @Test func subscriptsReachMembersAndElements() {
    let value: JSONValue = ["list": [10, 20]]
    #expect(value["list"]?[1] == 20)
    #expect(value["list"]?[2] == nil)
    #expect(value["missing"] == nil)
    #expect(JSONValue.int(1)["key"] == nil)
  }

  @Test func codableRoundTripThroughFoundation() throws {
    let value: JSONValue = ["n": nil, "b": true, "i": 42, "d": 0.5, "s": "text", "a": [1, [2]], "o": ["k": "v"]]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
  }

  @Test func convertsEncodableAndDecodableTypes() throws {
    struct Counter: Codable, Equatable {
      var count: Int
      var name: String
    }
    let value = try JSONValue(encoding: Counter(count: 3, name: "Blob"))
    #expect(value == ["count": 3, "name": "Blob"])
    #expect(try value.decode(as: Counter.self) == Counter(count: 3, name: "Blob"))
  }
}
