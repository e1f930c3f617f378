import ComposableArchitecture
import ComposableTesting
import Foundation
import Poll
import Testing

/// Two sessions of one poll: their states share one board, as on the server.
@MainActor
private func twoSessions() -> (TestStore<Poll.State, Poll.Action>, TestStore<Poll.State, Poll.Action>) {
  let storage = FileStorage.inMemory()
  func session() -> TestStore<Poll.State, Poll.Action> {
    let state = withDependencies { $0.defaultFileStorage = storage } operation: { Poll.State() }
    return TestStore(initialState: state) {
      Poll()
    } withDependencies: {
      $0.defaultFileStorage = storage
      $0.uuid = .incrementing
    }
  }
  return (session(), session())
}

@MainActor
struct PollTests {
  @Test func votesMoveAndComeBack() async {
    let (store, _) = twoSessions()
    await store.send(.addChoice(title: "  Park ")) {
      $0.$board.withLock { _ = $0.choices.append(Choice(id: UUID(0), title: "Park")) }
    }
    await store.send(.addChoice(title: "Library")) {
      $0.$board.withLock { _ = $0.choices.append(Choice(id: UUID(1), title: "Library")) }
    }
    await store.send(.vote(id: UUID(0))) {
      $0.$board.withLock { $0.choices[id: UUID(0)]?.votes = 1 }
      $0.myVote = UUID(0)
    }
    await store.send(.vote(id: UUID(1))) {
      $0.$board.withLock {
        $0.choices[id: UUID(0)]?.votes = 0
        $0.choices[id: UUID(1)]?.votes = 1
      }
      $0.myVote = UUID(1)
    }
    await store.send(.vote(id: UUID(1))) {
      $0.$board.withLock { $0.choices[id: UUID(1)]?.votes = 0 }
      $0.myVote = nil
    }
  }

  @Test func oneSessionsChangeReachesTheOther() async {
    let (alice, bob) = twoSessions()
    await alice.send(.editQuestion(text: "Lunch where?")) {
      $0.$board.withLock { $0.question = "Lunch where?" }
    }
    await alice.send(.addChoice(title: "Noodles")) {
      $0.$board.withLock { _ = $0.choices.append(Choice(id: UUID(0), title: "Noodles")) }
    }
    #expect(bob.state.board.question == "Lunch where?")
    #expect(bob.state.board.choices.map(\.title) == ["Noodles"])
    // Bob's store asserts Alice's changes of the board too: they happened since its last step.
    await bob.send(.vote(id: UUID(0))) {
      $0.$board.withLock {
        $0.question = "Lunch where?"
        $0.choices = [Choice(id: UUID(0), title: "Noodles", votes: 1)]
      }
      $0.myVote = UUID(0)
    }
    #expect(alice.state.board.choices[id: UUID(0)]?.votes == 1)
    #expect(alice.state.myVote == nil)
  }

  @Test func refusesWhatWouldSpoilTheBoard() async {
    let (store, _) = twoSessions()
    await store.send(.addChoice(title: "Park")) {
      $0.$board.withLock { _ = $0.choices.append(Choice(id: UUID(0), title: "Park")) }
    }
    await store.send(.addChoice(title: "   "))
    await store.send(.addChoice(title: "PARK"))
    await store.send(.editQuestion(text: ""))
    await store.send(.vote(id: UUID(99)))
    await store.send(.vote(id: UUID(0))) {
      $0.$board.withLock { $0.choices[id: UUID(0)]?.votes = 1 }
      $0.myVote = UUID(0)
    }
    // Somebody voted for it: it stays.
    await store.send(.removeChoice(id: UUID(0)))
    await store.send(.vote(id: UUID(0))) {
      $0.$board.withLock { $0.choices[id: UUID(0)]?.votes = 0 }
      $0.myVote = nil
    }
    await store.send(.removeChoice(id: UUID(0))) {
      $0.$board.withLock { $0.choices = [] }
    }
  }

  @Test func keepsTheBoardWithinItsLimits() async {
    let (store, _) = twoSessions()
    store.exhaustivity = .off
    for index in 0..<(BoardLimits.maxChoices + 5) {
      await store.send(.addChoice(title: "Choice \(index)"))
    }
    #expect(store.state.board.choices.count == BoardLimits.maxChoices)
    await store.send(.editQuestion(text: String(repeating: "q", count: 500)))
    #expect(store.state.board.question.count == BoardLimits.maxTitleLength)
  }
}
