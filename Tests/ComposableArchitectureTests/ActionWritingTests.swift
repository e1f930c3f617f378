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

/// A form whose bindings are written in one pass; `place` does not write itself.
struct WrittenForm: Equatable {
  struct Place: Codable, Equatable, Sendable {
    var x: Int
    var y: Int
  }

  var title = ""
  var count = 0
  var place = Place(x: 0, y: 0)
  var note: String?
  var isSecret = false
}

extension WrittenForm: BindableFields {
  static var bindableFields: [BindableField<Self>] {
    [BindableField("title", \.title), BindableField("count", \.count), BindableField("place", \.place), BindableField("note", \.note)]
  }
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

  @Test(arguments: [
    BindingAction<WrittenForm>.set(\.title, "say \"hi\"\n"), .set(\.count, 7), .set(\.place, .init(x: 1, y: 2)), .set(\.note, nil),
    .set(\.note, "n"),
  ])
  func aBindingIsWrittenAsItIsEncoded(binding: BindingAction<WrittenForm>) throws {
    #expect((BindingAction<WrittenForm>.self as Any.Type) is any JSONWritable.Type)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(
      String(decoding: try JSONEncoding.encode(binding), as: UTF8.self)
        == String(decoding: try encoder.encode(binding), as: UTF8.self))
  }

  @Test func writingABindingOfAnUndeclaredFieldFails() {
    #expect(throws: EncodingError.self) {
      try JSONEncoding.encode(BindingAction<WrittenForm>.set(\.isSecret, true))
    }
  }

  private func written(_ action: WrittenAction) throws -> String {
    String(decoding: try JSONEncoding.encode(action), as: UTF8.self)
  }
}
