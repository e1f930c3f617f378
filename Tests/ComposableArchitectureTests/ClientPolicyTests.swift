import ComposableArchitecture
import Foundation
import Testing

@Suite struct ClientPolicyTests {
  private func clientError(_ text: String) -> ActionDecodingError? {
    #expect(throws: ActionDecodingError.self) {
      try ActionDecoding.decodeClientAction(App.Action.self, from: Data(text.utf8))
    }
  }

  private func element(_ action: String) -> String {
    #"{"todos":{"element":{"id":"00000000-0000-0000-0000-000000000001","action":\#(action)}}}"#
  }

  @Test func acceptsClientCases() throws {
    let action = try ActionDecoding.decodeClientAction(
      App.Action.self, from: Data(#"{"counter":"incrementButtonTapped"}"#.utf8))
    #expect(action.is(\.counter.incrementButtonTapped))
  }

  @Test func rejectsAnInternalCase() {
    let error = clientError(#""timerTicked""#)
    #expect(error?.kind == .internalCase)
    #expect(error?.message == "case 'timerTicked' of App.Action is internal: clients may not send it")
  }

  @Test func rejectsAnInternalCaseDeepInTheTree() {
    let error = clientError(element(#"{"saved":true}"#))
    #expect(error?.kind == .internalCase)
    #expect(error?.path == "todos.element.action")
    #expect(error?.message == "todos.element.action: case 'saved' of Todo.Action is internal: clients may not send it")
  }

  @Test func rejectsDelegateActions() {
    let error = clientError(element(#"{"delegate":"didDelete"}"#))
    #expect(error?.kind == .internalCase)
    #expect(error?.message.contains("'delegate'") == true)
  }

  @Test func unknownCaseListsTheClientCases() {
    let error = clientError(#""reset""#)
    #expect(error?.kind == .unknownCase)
    #expect(error?.message == "unknown case 'reset' of App.Action; valid cases: counter, todos")
  }

  @Test func unknownChildCaseNamesThePath() {
    let error = clientError(#"{"counter":"reset"}"#)
    #expect(error?.path == "counter")
    #expect(error?.message == "counter: unknown case 'reset' of Counter.Action; valid cases: decrementButtonTapped, incrementButtonTapped")
  }

  @Test func acceptsABindableField() throws {
    let action = try ActionDecoding.decodeClientAction(
      App.Action.self, from: Data(element(#"{"binding":{"title":"Milk"}}"#).utf8))
    #expect(action[case: \.todos.element]?.action == .binding(.set(\.title, "Milk")))
  }

  @Test func rejectsANonBindableField() {
    let error = clientError(element(#"{"binding":{"isSaving":true}}"#))
    #expect(error?.kind == .nonBindableField)
    #expect(error?.path == "todos.element.action.binding")
    #expect(error?.message == "todos.element.action.binding: 'isSaving' is not a bindable field of Todo.State; bindable fields: title, isComplete")
  }

  @Test func rejectsAnUnknownField() {
    let error = clientError(element(#"{"binding":{"color":"red"}}"#))
    #expect(error?.kind == .nonBindableField)
    #expect(error?.message.contains("'color' is not a bindable field of Todo.State") == true)
  }

  @Test func rejectsAWronglyTypedBinding() {
    let error = clientError(element(#"{"binding":{"isComplete":"yes"}}"#))
    #expect(error?.kind == .malformed)
    #expect(error?.path == "todos.element.action.binding.isComplete")
  }

  @Test func reportsAMissingKeyWithItsPath() {
    let error = clientError(#"{"todos":{"element":{"action":"deleteButtonTapped"}}}"#)
    #expect(error?.kind == .malformed)
    #expect(error?.message == "todos.element: missing key 'id'")
  }

  @Test func rejectsBytesThatAreNotJSON() {
    #expect(clientError("{counter")?.kind == .malformed)
  }

  @Test func rejectsTwoCasesInOneObject() {
    let error = clientError(#"{"counter":"incrementButtonTapped","timerTicked":null}"#)
    #expect(error?.message == "an action object has one key, the case name of App.Action, but found counter, timerTicked")
  }

  @Test func decodesOneActionOrAnArray() throws {
    let one = try ActionDecoding.decodeClientActions(
      App.Action.self, from: Data(#"{"counter":"incrementButtonTapped"}"#.utf8))
    #expect(one.count == 1)
    let many = try ActionDecoding.decodeClientActions(
      App.Action.self,
      from: Data(#"[{"counter":"incrementButtonTapped"},{"counter":"decrementButtonTapped"}]"#.utf8))
    #expect(many.count == 2)
    #expect(many.last?.is(\.counter.decrementButtonTapped) == true)
  }

  @Test func anArrayFailsAsAWholeNamingTheElement() {
    let error = #expect(throws: ActionDecodingError.self) {
      try ActionDecoding.decodeClientActions(
        App.Action.self, from: Data(#"[{"counter":"incrementButtonTapped"},"timerTicked"]"#.utf8))
    }
    #expect(error?.path == "[1]")
    #expect(error?.kind == .internalCase)
  }

  @Test func stateWithoutBindingStateHasNoBindableFields() {
    #expect(Counter.State.bindableFields.isEmpty)
    #expect(Todo.State.bindableFields.map(\.name) == ["title", "isComplete"])
  }
}
