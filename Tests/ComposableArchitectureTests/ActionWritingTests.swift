import ComposableArchitecture
import Foundation
import Testing

/// Payload shapes whose written JSON must equal their encoded JSON.
@CasePathable
enum WrittenAction {
  case reset
  case range(to: Int, from: Int)
  case child(Shapes)
  case children(Shapes, Shapes?)
  case loaded(Result<String, any Error>)
  case note(String?)
  case quoted(String)
  case `default`
}

@Suite struct ActionWritingTests {
  /// `writeJSON(to:)` (what ``JSONEncoding`` uses) against `encode(to:)` through Foundation's
  /// own encoder: two implementations, one JSON.
  @Test(arguments: [
    WrittenAction.reset, .range(to: 9, from: 1), .child(.move(from: 1, to: 2)), .child(.search(query: "a", page: nil)),
    .children(.pair(1, "b"), nil), .children(.reset, .optional(3)), .loaded(.success("ok")), .note(nil),
    .note("n"), .quoted("say \"hi\"\n\u{1}"), .default,
  ])
  func theWrittenJSONIsTheEncodedJSON(action: WrittenAction) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(try written(action) == String(decoding: try encoder.encode(action), as: UTF8.self))
  }

  @Test func generatedCodingWritesItselfAndCustomCodingDoesNot() {
    #expect((WrittenAction.self as Any.Type) is any JSONWritable.Type)
    #expect((Shapes.self as Any.Type) is any JSONWritable.Type)
    #expect(!((CustomEncoding.self as Any.Type) is any JSONWritable.Type))
    #expect(!((ImplicitlyCustom.self as Any.Type) is any JSONWritable.Type))
  }

  @Test func labeledPayloadsAreWrittenInTheOrderOfTheirLabels() throws {
    #expect(try written(WrittenAction.range(to: 9, from: 1)) == #"{"range":{"from":1,"to":9}}"#)
  }

  private func written(_ action: WrittenAction) throws -> String {
    String(decoding: try JSONEncoding.encode(action), as: UTF8.self)
  }
}
