import ComposableArchitecture
import Foundation
import Testing

private struct Profile: Equatable {
  enum Role: Equatable {
    case admin
    case member(since: Int, team: String)
  }

  var name = "Blob"
  var nickname: String?
  var role = Role.member(since: 2020, team: "Core")
  var scores = ["b": 2, "a": 1]
  var tags: [String] = []
}

@Test
func dumpsNestedValuesOnePerLine() {
  #expect(
    customDump(Profile()) == """
      Profile(
        name: "Blob",
        nickname: nil,
        role: .member(
          since: 2020,
          team: "Core"
        ),
        scores: [
          "a": 1,
          "b": 2
        ],
        tags: []
      )
      """)
}

@Test
func dumpsEnumsWithTheirTypeAtTheRoot() {
  #expect(customDump(TwoCounters.Action.first(.incrementButtonTapped)) == "TwoCounters.Action.first(.incrementButtonTapped)")
  #expect(customDump(Profile.Role.admin) == "Profile.Role.admin")
  #expect(customDump(Optional(42) as Any) == "42")
}

@Test
func dumpsIdentifiedArraysAsArrays() {
  let todos: IdentifiedArrayOf<Todo.State> = [Todo.State(id: UUID(0), description: "Milk")]
  #expect(
    customDump(todos) == """
      [
        [0]: Todo.State(
          id: UUID(00000000-0000-0000-0000-000000000000),
          description: "Milk",
          isComplete: false
        )
      ]
      """)
}

@Test
func dumpsSetsSortedAndStopsAtCycles() {
  #expect(customDump(Set([3, 1, 2])) == "Set([\n  1,\n  2,\n  3\n])")
  let node = Node()
  node.next = node
  #expect(customDump(node) == "Node(\n  next: Node(↩︎)\n)")
}

private final class Node {
  var next: Node?
}

@Test
func printChangesDiffsTheDump() {
  let lines = Lines()
  let reducer = Counter()._printChanges { lines.append($0) }
  var state = Counter.State()
  _ = reducer.reduce(into: &state, action: .incrementButtonTapped)
  #expect(
    lines.all == [
      """
      received action:
        Counter.Action.incrementButtonTapped
      - Counter.State(count: 0)
      + Counter.State(count: 1)
      """
    ])
}

import Synchronization

private final class Lines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}

@Test
func dumpsAStackByElementID() {
  let path: StackState<Counter.State> = [Counter.State(count: 2), Counter.State(count: 1)]
  #expect(
    customDump(path) == """
      [
        #0: Counter.State(count: 2),
        #1: Counter.State(count: 1)
      ]
      """)
  #expect(customDump(StackState<Counter.State>()) == "[:]")
}

@Test
func stackElementIDsAreMadeInOrder() {
  @Dependency(\.stackElementID) var stackElementID
  #expect(stackElementID.peek().generation == 0)
  #expect(stackElementID.next().customDumpDescription == "#0")
  #expect(stackElementID.next() == 1)
  #expect(customDump(StackAction<Int, Int>.popFrom(id: 1)) == "StackAction<Int, Int>.popFrom(id: #1)")
}
