import ComposableArchitecture
import Foundation
import Testing

@_spi(Hosting) @testable import Composable

/// `readJSON(from:)`, generated beside `init(from:)`: the same actions straight from the
/// bytes, or a give-up that leaves the bytes to `init(from:)`.
@Suite struct ActionReadingTests {
  private func read<Action: JSONReadableAction>(_ type: Action.Type, _ text: String) -> [Action]? {
    Array(text.utf8).withUnsafeBytes { Action.readClientActions($0, keepingJSON: false)?.actions }
  }

  private func decoded<Action: Decodable>(_ type: Action.Type, _ text: String) throws -> [Action] {
    try ActionDecoding.decodeClientActions(type, from: Data(text.utf8))
  }

  @Test(arguments: [
    #""reset""#, #"{"setName":"Blob"}"#, #" { "setName" : "a\"b\u00e9" } "#, #"{"setID":{"id":3}}"#,
    #"{"move":{"to":3,"from":1}}"#, #"{"pair":[1,"a"]}"#, #"{"mixed":[2,"b"]}"#, #"{"optional":null}"#,
    #"{"optional":5}"#, #"{"search":{"query":"q"}}"#, #""default""#, #"{"reset":null}"#,
    #"["reset",{"setName":"x"},{"move":{"from":1,"to":2}}]"#, "[]",
  ])
  func readsWhatDecodingDecodes(text: String) throws {
    let direct = try #require(read(Shapes.self, text), "read straight from the bytes")
    #expect(direct == (try decoded(Shapes.self, text)))
  }

  @Test func nestedFeatureActionsAreReadThroughTheirOwnReaders() throws {
    let text = #"[{"counter":"incrementButtonTapped"},{"counter":"decrementButtonTapped"}]"#
    let direct = try #require(read(App.Action.self, text))
    #expect(direct.count == 2)
    #expect(direct[0].is(\.counter.incrementButtonTapped))
    #expect(direct[1].is(\.counter.decrementButtonTapped))
  }

  @Test func bindingsReadThemselves() throws {
    #expect((BindingAction<Todo.State>.self as Any.Type) is any JSONReadableAction.Type)
    let direct = try #require(read(BindingAction<Todo.State>.self, #"{"title":"Milk"}"#))
    #expect(direct == [.set(\.title, "Milk")])
    #expect(read(BindingAction<Todo.State>.self, #"{"isSaving":true}"#) == nil)
  }

  @Test func payloadsOfOtherTypesAreDecodedFromTheirValue() throws {
    let text = #"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":{"isComplete":true}}}}}"#
    let direct = try #require(read(App.Action.self, text)?.first)
    let element = try #require(direct[case: \.todos.element])
    #expect(element.id == todoID)
    #expect(element.action == .binding(.set(\.isComplete, true)))
  }

  /// Whatever the reader does not expect is left to `init(from:)`, whose answer stands:
  /// the errors clients see do not change.
  @Test(arguments: [
    (#""timerTicked""#, ActionDecodingError.Kind.internalCase),
    (#""nope""#, .unknownCase),
    (#"{"counter":"incrementButtonTapped","other":1}"#, .malformed),
    (#"{"counter":"incrementButtonTapped"} x"#, .malformed),
    (#"{"counter":"incrementButtonTapped""#, .malformed),
    (#"{"counter":"nope"}"#, .unknownCase),
    (#"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"saved":true}}}}"#, .internalCase),
    (#"[{"counter":"incrementButtonTapped"},"timerTicked"]"#, .internalCase),
    ("{}", .malformed),
    (#"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":{"isSaving":true}}}}}"#,
     .nonBindableField),
    (#"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":{"title":"a","isComplete":true}}}}}"#,
     .malformed),
    (#"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":{"isComplete":"yes"}}}}}"#,
     .malformed),
    (#"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":"title"}}}}"#, .malformed),
  ])
  func givesUpWhereDecodingDecides(text: String, kind: ActionDecodingError.Kind) {
    #expect(read(App.Action.self, text) == nil)
    #expect { try decoded(App.Action.self, text) } throws: { ($0 as? ActionDecodingError)?.kind == kind }
  }

  @Test func keepsEachActionsJSONAsSentWithoutWhitespace() throws {
    let batch = #" [ {"counter" : "incrementButtonTapped"},{ "counter":"decrementButtonTapped" }] "#
    let read = try ActionDecoding.decodeClientActions(App.Action.self, from: Data(batch.utf8), keepingJSON: true)
    let json = try #require(read.json).map { String(decoding: $0, as: UTF8.self) }
    #expect(json == [#"{"counter":"incrementButtonTapped"}"#, #"{"counter":"decrementButtonTapped"}"#])
    #expect(json == (try read.actions.map { String(decoding: try JSONEncoding.encode($0), as: UTF8.self) }))
    let binding = #"{ "title" : " a \"b\" \u00e9" }"#
    let title = try ActionDecoding.decodeClientActions(BindingAction<Todo.State>.self, from: Data(binding.utf8), keepingJSON: true)
    #expect(title.actions == [.set(\.title, #" a "b" é"#)])
    #expect(title.json == [Array(#"{"title":" a \"b\" \u00e9"}"#.utf8)])
  }

  @Test func keepsCompactJSONAsSentWhereOnlyStringsHoldSpacesBesideActionsWithWhitespace() throws {
    let batch = #"[{"title":" a \"b\" \u00e9 "},{ "title":"x  y" },{"isComplete":true}]"#
    let read = try ActionDecoding.decodeClientActions(BindingAction<Todo.State>.self, from: Data(batch.utf8), keepingJSON: true)
    #expect(read.actions == [.set(\.title, #" a "b" é "#), .set(\.title, "x  y"), .set(\.isComplete, true)])
    #expect(
      read.json == [
        Array(#"{"title":" a \"b\" \u00e9 "}"#.utf8), Array(#"{"title":"x  y"}"#.utf8), Array(#"{"isComplete":true}"#.utf8),
      ])
  }

  /// An object decoded with `init(from:)` may pass over members it does not know, so its
  /// bytes are not kept.
  @Test(arguments: [#"{"setID":{"id":3}}"#, #"{"move":{"to":3,"from":1}}"#, #"{"pair":[1,"a"]}"#])
  func keepsNoJSONThatMaySayMoreThanTheAction(text: String) throws {
    let read = try ActionDecoding.decodeClientActions(Shapes.self, from: Data(text.utf8), keepingJSON: true)
    #expect(read.actions.count == 1)
    #expect(read.json == nil)
  }

  @Test func repeatedNamesAreRefusedAsTheParserRefusesThem() {
    #expect(read(Shapes.self, #"{"move":{"from":1,"from":2,"to":3}}"#) == nil)
    #expect(throws: ActionDecodingError.self) { try decoded(Shapes.self, #"{"move":{"from":1,"from":2,"to":3}}"#) }
  }
}
