import Foundation
import Testing

@testable import StoreHostJSON

@Suite struct JSONValueDecoderTests {
  private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONValue(parsing: Array(text.utf8)).decode(as: type)
  }

  @Test func decodesWhatTheEncoderWrites() throws {
    let scalars = Scalars(int: 3, uint: 7, uint64: 1 << 60, double: 1e-7, float: 0.25, optional: 2, nested: .some(nil))
    let decoded = try JSONValue(parsing: try JSONEncoding.encode(scalars)).decode(as: Scalars.self)
    #expect(decoded.int == 3 && decoded.double == 1e-7 && decoded.float == 0.25 && decoded.optional == 2)
    #expect(decoded.uuid == scalars.uuid && decoded.date == scalars.date && decoded.data == scalars.data)
    #expect(decoded.url == scalars.url && decoded.decimal == scalars.decimal)
    let shapes: [Shape] = [.point, .circle(radius: 2), .labeled("x", nil), .nested(.point)]
    #expect(try JSONValue(parsing: try JSONEncoding.encode(shapes)).decode(as: [Shape].self) == shapes)
    let containers = Containers(byName: ["a": 1], byNumber: [10: "ten"], matrix: [[1], []])
    let roundTripped = try JSONValue(parsing: try JSONEncoding.encode(containers)).decode(as: Containers.self)
    #expect(roundTripped == containers)
  }

  @Test func integersMustBeWholeAndFit() throws {
    #expect(try decode(Int8.self, "127") == 127)
    #expect(try decode(Int.self, "2.0") == 2)
    #expect(throws: DecodingError.self) { try decode(Int8.self, "128") }
    #expect(throws: DecodingError.self) { try decode(Int.self, "2.5") }
    #expect(throws: DecodingError.self) { try decode(UInt.self, "-1") }
    #expect(try decode(Double.self, "3") == 3)
  }

  @Test func typeMismatchesNameThePathAndWhatWasFound() throws {
    struct Payload: Decodable { var items: [Int] }
    do {
      _ = try decode(Payload.self, #"{"items": [1, "two"]}"#)
      Issue.record("decoded a string as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["items", "1"])
      #expect(context.debugDescription == "Expected a number but found a string.")
    }
  }

  @Test func missingKeysAndNullsAreErrorsUnlessOptional() throws {
    struct Payload: Decodable, Equatable {
      var name: String
      var age: Int?
    }
    #expect(try decode(Payload.self, #"{"name": "Blob"}"#) == Payload(name: "Blob", age: nil))
    #expect(try decode(Payload.self, #"{"name": "Blob", "age": null}"#) == Payload(name: "Blob", age: nil))
    #expect(throws: DecodingError.self) { try decode(Payload.self, #"{"age": 3}"#) }
    #expect(throws: DecodingError.self) { try decode(Payload.self, #"{"name": null}"#) }
  }

  @Test func duplicateMemberNamesAreRefusedBeforeDecoding() {
    #expect(throws: JSONParseError(reason: .duplicateKey("counter"), offset: 23)) {
      try JSONValue(parsing: Array(#"{"counter":"decrement","counter":"increment"}"#.utf8))
    }
  }
}
