import ComposableArchitecture
import Foundation
import Poll
import Testing

/// The JSON of the poll's state, written by the code `@ObservableState` generates, is the
/// JSON `JSONEncoder` writes through `Codable` (keys sorted), and reads back equal.
struct PollStateJSONTests {
  private func expectSameAsCodable<Value: Codable & Equatable>(_ value: Value) throws {
    #expect(Value.self is any JSONWritable.Type)
    let generated = try JSONEncoding.encode(value)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(String(decoding: generated, as: UTF8.self) == String(decoding: try encoder.encode(value), as: UTF8.self))
    #expect(try JSONDecoder().decode(Value.self, from: Data(generated)) == value)
    #expect(try JSONValue(parsing: generated).decode(as: Value.self) == value)
  }

  @Test func theStateBoardAndChoices() throws {
    let storage = FileStorage.inMemory()
    var state = withDependencies { $0.defaultFileStorage = storage } operation: { Poll.State() }
    try expectSameAsCodable(state)
    state.myVote = UUID(1)
    state.$board.withLock {
      $0.question = "Où \"ça\"?"
      $0.choices = [Choice(id: UUID(1), title: "Park", votes: Int.max), Choice(id: UUID(2), title: "", votes: 0)]
    }
    try expectSameAsCodable(state)
    try expectSameAsCodable(state.board)
    try expectSameAsCodable(state.board.choices[0])
  }

  @Test func aBoardSavedBeforeChoicesExistedReadsAsEmpty() throws {
    let board = try JSONDecoder().decode(Board.self, from: Data(#"{"question":"Lunch?"}"#.utf8))
    #expect(board == Board(question: "Lunch?", choices: []))
  }
}
