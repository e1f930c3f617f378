import Composable
import Foundation
import Testing

@Suite struct CasePathTests {
  @Test func caseKeyPathsEmbedAndExtract() {
    let path = AnyCasePath(\TwoCounters.Action.Cases.first)
    #expect(path.embed(.incrementButtonTapped) == .first(.incrementButtonTapped))
    #expect(path.extract(from: .first(.decrementButtonTapped)) == .decrementButtonTapped)
    #expect(path.extract(from: .second(.decrementButtonTapped)) == nil)
  }

  @Test func nestedCaseKeyPaths() {
    let action = TwoCounters.Action.second(.incrementButtonTapped)
    #expect(action.is(\.second.incrementButtonTapped))
    #expect(!action.is(\.second.decrementButtonTapped))
    #expect(!action.is(\.first))
    #expect(action[case: \.second] == .incrementButtonTapped)
    let nested = AnyCasePath(\TwoCounters.Action.Cases.first.decrementButtonTapped)
    #expect(nested.embed(()) == .first(.decrementButtonTapped))
  }

  @Test func identifiedActionCasePathsByID() {
    let id = UUID()
    let action = Todos.Action.todos(.element(id: id, action: .toggled))
    #expect(action.is(\.todos[id: id].toggled))
    #expect(!action.is(\.todos[id: UUID()]))
    #expect(action[case: \.todos.element]?.id == id)
  }
}
