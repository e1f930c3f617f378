import ComposableArchitecture
import Foundation
import Testing

/// A state as an earlier build saved it.
@ObservableState
private struct SettingsV1: Codable, Equatable {
  var count = 0
  var legacyFlag = false
  var items: IdentifiedArrayOf<ItemV1> = []
}

@ObservableState
private struct ItemV1: Codable, Equatable, Identifiable {
  let id: Int
  var title: String
}

/// The same state a deploy later: a property with a default and optionals added, one removed.
@ObservableState
private struct SettingsV2: Codable, Equatable {
  var count = 0
  var step = 1
  var note: String?
  var label: String? = "new"
  var items: IdentifiedArrayOf<ItemV2> = []
}

@ObservableState
private struct ItemV2: Codable, Equatable, Identifiable {
  let id: Int
  var title: String
  var priority = 0
}

/// Properties a saved state must carry: no default value.
@ObservableState
private struct Required: Codable, Equatable {
  let id: Int
  var name: String?
  @Shared var total: Int
}

/// The property wrappers, with and without defaults.
@ObservableState
private struct Wrapped: Codable, Equatable {
  @Shared(.inMemory("evolution-shared")) var shared = 5
  @SharedReader(.inMemory("evolution-reader")) var reader = 6
  @Presents var detail: ItemV2?
  var other = 0
}

@Suite struct StateEvolutionTests {
  /// Decodes `text` with Foundation's `JSONDecoder` and with this project's decoder, which
  /// must agree.
  private func decodeBoth<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> T {
    let foundation = try JSONDecoder().decode(type, from: Data(text.utf8))
    let project = try JSONValue(parsing: Data(text.utf8)).decode(as: type)
    #expect(foundation == project, sourceLocation: sourceLocation)
    return foundation
  }

  /// The error of decoding `text` as `type` with both decoders, which must agree on its path.
  private func decodingError<T: Decodable>(
    _ type: T.Type, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> (error: DecodingError, path: String)? {
    func path(_ error: DecodingError) -> String {
      let context: DecodingError.Context? =
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
        case .keyNotFound(let key, let context): DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: "")
        @unknown default: nil
        }
      return context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") ?? ""
    }
    let foundation = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
      try JSONDecoder().decode(type, from: Data(text.utf8))
    }
    let project = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
      try JSONValue(parsing: Data(text.utf8)).decode(as: type)
    }
    guard let foundation, let project else { return nil }
    #expect(path(foundation) == path(project), sourceLocation: sourceLocation)
    return (foundation, path(foundation))
  }

  @Test func anAddedPropertyWithADefaultTakesItsDefault() throws {
    let saved = try json(SettingsV1(count: 3, legacyFlag: true, items: [ItemV1(id: 1, title: "milk")]))
    let restored = try decodeBoth(SettingsV2.self, saved)
    #expect(restored.count == 3)
    #expect(restored.step == 1)
    #expect(restored.items == [ItemV2(id: 1, title: "milk", priority: 0)], "nested in an IdentifiedArray")
  }

  @Test func aRemovedPropertyIsIgnored() throws {
    let restored = try decodeBoth(SettingsV2.self, #"{"count":4,"legacyFlag":true,"gone":{"deep":[1]}}"#)
    #expect(restored == SettingsV2(count: 4, label: nil))
  }

  @Test func anAddedOptionalIsNil() throws {
    let restored = try decodeBoth(SettingsV2.self, #"{"count":2}"#)
    #expect(restored.note == nil)
    // An optional is left out when nil, so a missing one is nil whatever its default.
    #expect(restored.label == nil)
    let nilLabel = SettingsV2(label: nil)
    #expect(try decodeBoth(SettingsV2.self, try json(nilLabel)) == nilLabel)
  }

  @Test func aWrongTypeStillFailsWithItsCodingPath() throws {
    let top = decodingError(SettingsV2.self, #"{"count":"three"}"#)
    guard case .typeMismatch? = top?.error else {
      Issue.record("expected a type mismatch, got \(String(describing: top))")
      return
    }
    #expect(top?.path == "count")
    let nested = decodingError(SettingsV2.self, #"{"items":[{"id":1,"title":"a"},{"id":2,"title":5}]}"#)
    #expect(nested?.path == "items.1.title")
    #expect(decodingError(SettingsV2.self, #"{"step":null}"#)?.path == "step", "null is not a default")
    #expect(decodingError(SettingsV2.self, #"[1]"#) != nil)
  }

  @Test func aPropertyWithoutADefaultIsStillRequired() throws {
    let missing = decodingError(Required.self, #"{"name":"Blob","total":1}"#)
    guard case .keyNotFound? = missing?.error else {
      Issue.record("expected a missing key, got \(String(describing: missing))")
      return
    }
    #expect(missing?.path == "id")
    #expect(decodingError(Required.self, #"{"id":1}"#)?.path == "total", "a @Shared without a default")
    let restored = try decodeBoth(Required.self, #"{"id":1,"total":7}"#)
    #expect(restored.id == 1 && restored.name == nil && restored.total == 7)
  }

  @Test func propertyWrappersDecodeAsBefore() throws {
    let stored = Shared(wrappedValue: 5, .inMemory("evolution-shared"))
    let restored = try decodeBoth(Wrapped.self, #"{"shared":9,"reader":8,"detail":{"id":3,"title":"x"}}"#)
    #expect(restored.shared == 9 && restored.reader == 8)
    #expect(restored.detail == ItemV2(id: 3, title: "x"))
    // A decoded shared value belongs to no key, as before.
    #expect(stored.wrappedValue == 5)
    let empty = try decodeBoth(Wrapped.self, #"{"detail":null}"#)
    #expect(empty.shared == 5 && empty.reader == 6 && empty.detail == nil, "missing: their defaults")
    #expect(try json(empty) == #"{"detail":null,"other":0,"reader":6,"shared":5}"#)
  }

  @Test func whatIsWrittenReadsBackEqual() throws {
    let value = SettingsV2(count: -1, step: 7, note: "n", label: nil, items: [ItemV2(id: 2, title: "t", priority: 3)])
    #expect(try decodeBoth(SettingsV2.self, try json(value)) == value)
    #expect(try decodeBoth(SettingsV2.self, String(decoding: try JSONEncoding.encode(value), as: UTF8.self)) == value)
  }
}
