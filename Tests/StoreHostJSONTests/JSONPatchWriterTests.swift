import Foundation
import Testing

import JSONTestSupport
@testable import StoreHostJSON

@Suite struct JSONPatchWriterTests {
  private func patch(from old: Board, to new: Board) throws -> JSONPatchWriter {
    var patch = JSONPatchWriter()
    try Board.writeJSONPatch(from: old, to: new, into: &patch)
    return patch
  }

  private func text(_ patch: JSONPatchWriter) -> String {
    String(decoding: patch.operations, as: UTF8.self)
  }

  @Test func equalValuesGiveNoOperations() throws {
    let board = Board(items: [Item(id: 1, title: "milk")], tags: ["a"])
    let patch = try patch(from: board, to: board)
    #expect(text(patch) == "[]")
    #expect(patch.sizeChange == 0)
  }

  @Test func oneChangedFieldIsOneReplaceAtItsPath() throws {
    let old = Board(items: [Item(id: 1, title: "milk"), Item(id: 2, title: "eggs")])
    var new = old
    new.items[1].done = true
    let patch = try patch(from: old, to: new)
    #expect(text(patch) == #"[{"op":"replace","path":"/items/1/done","value":true}]"#)
    #expect(patch.sizeChange == -1)  // "false" to "true"
  }

  @Test func optionalMembersAreAddedAndRemoved() throws {
    let old = Board(items: [Item(id: 1, title: "milk")])
    var new = old
    new.items[0].note = "2 litres"
    new.pinned = Item(id: 9, title: "x")
    let added = try patch(from: old, to: new)
    #expect(
      text(added)
        == #"[{"op":"add","path":"/items/0/note","value":"2 litres"},{"op":"add","path":"/pinned","value":{"done":false,"id":9,"title":"x"}}]"#
    )
    let removed = try patch(from: new, to: old)
    #expect(text(removed) == #"[{"op":"remove","path":"/items/0/note"},{"op":"remove","path":"/pinned"}]"#)
  }

  @Test func dictionaryKeysAreEscapedInPaths() throws {
    let old = Board()
    var new = old
    new.byKey["a/b~c\"d"] = Item(id: 1, title: "")
    #expect(
      text(try patch(from: old, to: new))
        == #"[{"op":"add","path":"/byKey/a~1b~0c\"d","value":{"done":false,"id":1,"title":""}}]"#)
  }

  @Test func anInsertAtTheFrontOfALongArrayIsOneAdd() throws {
    let old = Board(items: (0..<500).map { Item(id: $0, title: "item \($0)") })
    var new = old
    new.items.insert(Item(id: -1, title: "first"), at: 0)
    let patch = try patch(from: old, to: new)
    #expect(patch.operationCount == 1)
    #expect(text(patch).hasPrefix(#"[{"op":"add","path":"/items/0","#))
  }

  @Test func randomEditsPatchTheOldDocumentIntoTheNewOneAndCountTheBytes() async throws {
    var generator = SeededGenerator(seed: 2026)
    var board = Board()
    for round in 0..<2000 {
      if round % 100 == 0 { await Task.yield() }
      let next = board.mutated(using: &generator)
      let patch = try patch(from: board, to: next)
      let oldJSON = try JSONEncoding.encode(board)
      let newJSON = try JSONEncoding.encode(next)
      let operations = try JSONDecoder().decode([JSONPatchOperation].self, from: Data(patch.operations))
      let patched = try JSONPatch.apply(operations, to: try JSONValue(parsing: oldJSON))
      #expect(patched == (try JSONValue(parsing: newJSON)), "round \(round)")
      #expect(patch.sizeChange == newJSON.count - oldJSON.count, "round \(round)")
      if board == next { #expect(patch.operationCount == 0) }
      board = next
    }
  }

  @Test func typesWhoseEqualityMayHideChangesAreComparedByTheirJSON() throws {
    // With the hook saying `Item`'s `==` cannot be trusted, equal items are still compared
    // by their JSON, and only the real difference is written.
    let old = Board(items: [Item(id: 1, title: "a"), Item(id: 2, title: "b")])
    var new = old
    new.items[0].title = "c"
    var patch = JSONPatchWriter(equalityMayHideChanges: { $0 == Item.self || $0 == [Item].self || $0 == Board.self })
    try Board.writeJSONPatch(from: old, to: new, into: &patch)
    #expect(text(patch) == #"[{"op":"replace","path":"/items/0/title","value":"c"}]"#)
  }
}
