import ComposableArchitecture
import Foundation
import Testing

@Suite struct CasePathMacroTests {
  @Test func theMacroNamesEachCasesPayloadType() throws {
    let types = try #require(Shapes._$casePayloadTypes).map(ObjectIdentifier.init)
    let expected: [Any.Type] = [
      Void.self, String.self, Int.self, (from: Int, to: Int).self, (Int, String).self, (Int, label: String).self,
      Int?.self, (query: String, page: Int?).self, Void.self,
    ]
    #expect(types == expected.map(ObjectIdentifier.init))
  }

  @Test func caseWithoutPayloadIsVoid() {
    let path = AnyCasePath(\Case<Shapes>.reset)
    #expect(path.extract(from: .reset) != nil)
    #expect(path.extract(from: .setName("Blob")) == nil)
    let reset: CaseKeyPath<Shapes, Void> = \.reset
    #expect(reset() == Shapes.reset)
  }

  @Test func singleUnlabeledPayloadIsItsType() {
    let path: CaseKeyPath<Shapes, String> = \.setName
    #expect(AnyCasePath(path).extract(from: .setName("Blob")) == "Blob")
    #expect(path("Blob") == Shapes.setName("Blob"))
    #expect(Shapes.setName("Blob")[case: \.setName] == "Blob")
    #expect(Shapes.reset[case: \.setName] == nil)
  }

  @Test func singleLabeledPayloadIsItsType() {
    #expect(Shapes.setID(id: 7)[case: \.setID] == 7)
    let setID: CaseKeyPath<Shapes, Int> = \.setID
    #expect(setID(7) == Shapes.setID(id: 7))
  }

  @Test func labeledPayloadsAreALabeledTuple() throws {
    let move = try #require(Shapes.move(from: 1, to: 3)[case: \.move])
    #expect(move.from == 1 && move.to == 3)
    let path: CaseKeyPath<Shapes, (from: Int, to: Int)> = \.move
    #expect(path((from: 2, to: 5)) == Shapes.move(from: 2, to: 5))
  }

  @Test func unlabeledPayloadsAreATuple() throws {
    let pair = try #require(Shapes.pair(1, "a")[case: \.pair])
    #expect(pair.0 == 1 && pair.1 == "a")
    let mixed = try #require(Shapes.mixed(2, label: "b")[case: \.mixed])
    #expect(mixed.0 == 2 && mixed.label == "b")
    let path: CaseKeyPath<Shapes, (Int, label: String)> = \.mixed
    #expect(path((3, label: "c")) == Shapes.mixed(3, label: "c"))
  }

  @Test func escapedCaseNames() {
    #expect(Shapes.default.is(\.default))
    #expect(!Shapes.reset.is(\.default))
  }

  @Test func genericEnum() throws {
    #expect(Wrapper.value(3)[case: \.value] == 3)
    let values = try #require(Wrapper.values(first: "a", second: "b")[case: \.values])
    #expect(values.first == "a" && values.second == "b")
    #expect(Wrapper<Int>.allCasePaths.empty.extract(from: .value(1)) == nil)
  }

  @Test func enumNestedInAGenericStruct() {
    #expect(Outer<String>.Inner.element("x")[case: \.element] == "x")
    #expect(Outer<String>.Inner.reset.is(\.reset))
  }

  @Test func publicEnum() {
    #expect(PublicAction.setValue(4)[case: \.setValue] == 4)
  }

  @Test func pathsThroughAChildAction() {
    let action = App.Action.counter(.incrementButtonTapped)
    #expect(action.is(\.counter))
    #expect(action.is(\.counter.incrementButtonTapped))
    #expect(!action.is(\.counter.decrementButtonTapped))
    let path: CaseKeyPath<App.Action, Void> = \.counter.decrementButtonTapped
    #expect(path().is(\.counter.decrementButtonTapped))
  }

  @Test func casesKeyPathSpelling() {
    let counter = AnyCasePath(\App.Action.Cases.counter)
    #expect(counter.extract(from: .counter(.incrementButtonTapped)) != nil)
    #expect(counter.extract(from: .timerTicked) == nil)
    let increment = AnyCasePath(\App.Action.Cases.counter.incrementButtonTapped)
    #expect(increment.embed(()).is(\.counter.incrementButtonTapped))
  }

  @Test func pathsThroughAListElement() throws {
    let action = App.Action.todos(.element(id: todoID, action: .deleteButtonTapped))
    let element = try #require(action[case: \.todos.element])
    #expect(element.id == todoID)
    #expect(element.action == .deleteButtonTapped)
    let path: CaseKeyPath<App.Action, (id: UUID, action: Todo.Action)> = \.todos.element
    #expect(path((todoID, .deleteButtonTapped))[case: \.todos] == .element(id: todoID, action: .deleteButtonTapped))
  }

  @Test func generatedBindingAccessor() {
    let action = Todo.Action.binding(.set(\.title, "Milk"))
    #expect(action.binding == .set(\.title, "Milk"))
    #expect(Todo.Action.deleteButtonTapped.binding == nil)
    #expect(action[case: \.binding] == .set(\.title, "Milk"))
    #expect(action.is(\.binding))
  }

  @Test func storeScopesThroughACaseKeyPath() {
    let store = Store(initialState: App.State()) { App() }
    let counter = store.scope(state: \.counter, action: \.counter)
    counter.send(.incrementButtonTapped)
    counter.send(.incrementButtonTapped)
    #expect(store.counter.count == 2)
  }
}
