import ComposableArchitecture
import Foundation
import Poll
import Testing

// The poll's states declared again without `@ObservableState`, with the same stored
// properties, so that the compiler synthesizes their `Codable`.

private struct StateTwin: Codable {
  @Shared var board: Board
  var myVote: Choice.ID?

  init(_ state: Poll.State) {
    _board = state.$board
    myVote = state.myVote
  }
}

private struct BoardTwin: Codable {
  var question = "Where shall we meet?"
  var choices: IdentifiedArrayOf<ChoiceTwin> = []

  init(_ board: Board) {
    question = board.question
    choices = IdentifiedArray(uniqueElements: board.choices.map(ChoiceTwin.init))
  }
}

private struct ChoiceTwin: Codable, Identifiable {
  let id: UUID
  var title: String
  var votes: Int

  init(_ choice: Choice) {
    id = choice.id
    title = choice.title
    votes = choice.votes
  }
}

/// The JSON of the poll's state, written by the code `@ObservableState` generates
/// (`writeJSON`, `encode(to:)`), is the JSON the compiler's synthesized `Codable` writes
/// for its twin (through `JSONEncoder`, keys sorted), and each decoder reads the other's.
struct PollStateJSONTests {
  private func expectSameAsSynthesized<Value: Codable & Equatable, Twin: Codable>(
    _ value: Value, twin: (Value) -> Twin, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    #expect(Value.self is any JSONWritable.Type, sourceLocation: sourceLocation)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let synthesized = String(decoding: try encoder.encode(twin(value)), as: UTF8.self)
    let generated = try JSONEncoding.encode(value)
    #expect(String(decoding: generated, as: UTF8.self) == synthesized, "writeJSON", sourceLocation: sourceLocation)
    #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == synthesized, "encode(to:)", sourceLocation: sourceLocation)
    #expect(try JSONDecoder().decode(Value.self, from: Data(synthesized.utf8)) == value, sourceLocation: sourceLocation)
    #expect(try JSONValue(parsing: Array(synthesized.utf8)).decode(as: Value.self) == value, sourceLocation: sourceLocation)
    let twinRead = try JSONDecoder().decode(Twin.self, from: Data(generated))
    #expect(String(decoding: try encoder.encode(twinRead), as: UTF8.self) == synthesized, "init(from:)", sourceLocation: sourceLocation)
  }

  @Test func theStateBoardAndChoices() throws {
    let storage = FileStorage.inMemory()
    var state = withDependencies { $0.defaultFileStorage = storage } operation: { Poll.State() }
    try expectSameAsSynthesized(state, twin: StateTwin.init)
    state.myVote = UUID(1)
    state.$board.withLock {
      $0.question = "Où \"ça\"?"
      $0.choices = [Choice(id: UUID(1), title: "Park", votes: Int.max), Choice(id: UUID(2), title: "", votes: 0)]
    }
    try expectSameAsSynthesized(state, twin: StateTwin.init)
    try expectSameAsSynthesized(state.board, twin: BoardTwin.init)
    try expectSameAsSynthesized(state.board.choices[0], twin: ChoiceTwin.init)
  }

  @Test func aBoardSavedBeforeChoicesExistedReadsAsEmpty() throws {
    let board = try JSONDecoder().decode(Board.self, from: Data(#"{"question":"Lunch?"}"#.utf8))
    #expect(board == Board(question: "Lunch?", choices: []))
  }
}
