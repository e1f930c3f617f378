import ComposableArchitecture
import Foundation
import Testing

@Suite struct ActionCodingMacroTests {
  /// Each shape, its JSON, and back.
  @Test(arguments: [
    (Shapes.reset, #""reset""#),
    (.setName("Blob"), #"{"setName":"Blob"}"#),
    (.setID(id: 3), #"{"setID":{"id":3}}"#),
    (.move(from: 1, to: 3), #"{"move":{"from":1,"to":3}}"#),
    (.pair(1, "a"), #"{"pair":[1,"a"]}"#),
    (.mixed(2, label: "b"), #"{"mixed":[2,"b"]}"#),
    (.optional(nil), #"{"optional":null}"#),
    (.optional(5), #"{"optional":5}"#),
    (.default, #""default""#),
  ])
  func eachShapeRoundTrips(action: Shapes, expected: String) throws {
    #expect(try json(action) == expected)
    #expect(try decode(Shapes.self, expected) == action)
  }

  @Test func childActionsNest() throws {
    let action = App.Action.counter(.incrementButtonTapped)
    #expect(try json(action) == #"{"counter":"incrementButtonTapped"}"#)
    let decoded = try decode(App.Action.self, #"{"counter": "decrementButtonTapped"}"#)
    #expect(decoded.is(\.counter.decrementButtonTapped))
  }

  @Test func listElementBindingsNest() throws {
    let text = #"{"todos":{"element":{"action":{"binding":{"isComplete":true}},"id":"00000000-0000-0000-0000-000000000001"}}}"#
    let action = App.Action.todos(.element(id: todoID, action: .binding(.set(\.isComplete, true))))
    #expect(try json(action) == text)
    let element = try #require(try decode(App.Action.self, text)[case: \.todos.element])
    #expect(element.id == todoID)
    #expect(element.action == .binding(.set(\.isComplete, true)))
  }

  @Test func genericEnumRoundTrips() throws {
    let action = Wrapper.values(first: "a", second: "b")
    #expect(try json(action) == #"{"values":{"first":"a","second":"b"}}"#)
    #expect(try decode(Wrapper<String>.self, #"{"value":"c"}"#) == .value("c"))
    #expect(try decode(Wrapper<String>.self, #""empty""#) == .empty)
  }

  @Test func publicEnumRoundTrips() throws {
    #expect(try json(PublicAction.setValue(2)) == #"{"setValue":2}"#)
    #expect(try decode(PublicAction.self, #""tapped""#) == .tapped)
  }

  @Test func nonCodablePayloadsEncodeTheirDescription() throws {
    #expect(try json(Responses.loaded(.success("hi"))) == #"{"loaded":"success(\"hi\")"}"#)
    #expect(try json(Responses.tick) == #""tick""#)
  }

  @Test func nonCodablePayloadsFailToDecodeClearly() {
    let error = #expect(throws: ActionDecodingError.self) {
      try decode(Responses.self, #"{"loaded": "hi"}"#)
    }
    #expect(error?.message == "loaded: Result<String, Error> is not Decodable, so this payload cannot be decoded")
    #expect(error?.kind == .malformed)
  }

  @Test func internalCasesDecodeWithoutTheClientPolicy() throws {
    #expect(try decode(App.Action.self, #""timerTicked""#).is(\.timerTicked))
    let text = #"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"saved":true}}}}"#
    #expect(try decode(App.Action.self, text)[case: \.todos.element]?.action == .saved(true))
  }

  @Test func optionalLabeledValuesMayBeLeftOut() throws {
    #expect(try decode(Shapes.self, #"{"search":{"query":"milk"}}"#) == .search(query: "milk", page: nil))
    #expect(try decode(Shapes.self, #"{"search":{"query":"milk","page":2}}"#) == .search(query: "milk", page: 2))
    #expect(throws: DecodingError.self) { try decode(Shapes.self, #"{"search":{"page":2}}"#) }
  }

  @Test func payloadOfACaseWithoutOne() throws {
    let error = #expect(throws: ActionDecodingError.self) {
      try decode(Shapes.self, #"{"reset": 1}"#)
    }
    #expect(error?.message == "case 'reset' of Shapes takes no payload")
    #expect(try decode(Shapes.self, #"{"reset": null}"#) == .reset)
  }

  @Test func missingPayload() {
    let error = #expect(throws: ActionDecodingError.self) {
      try decode(Shapes.self, #""setName""#)
    }
    #expect(error?.message == #"case 'setName' of Shapes needs a payload: {"setName": ...}"#)
  }

  @Test func wrongNumberOfUnlabeledValues() {
    let error = #expect(throws: ActionDecodingError.self) {
      try decode(Shapes.self, #"{"pair": [1]}"#)
    }
    #expect(error?.message == "pair: case 'pair' of Shapes takes an array of 2 values, not 1")
  }

  @Test func declaredCodableUsesTheTaggedForm() throws {
    #expect(try json(DeclaredCodable.value(1)) == #"{"value":1}"#)
    #expect(try decode(DeclaredCodable.self, #"{"value":2}"#) == .value(2))
  }

  @Test func handWrittenMembersAreKept() throws {
    #expect(try json(CustomEncoding.tapped) == #""custom""#)
    #expect(try decode(CustomEncoding.self, #""tapped""#) == .tapped)
    #expect(try json(ImplicitlyCustom.tapped) == #""own""#)
  }
}
