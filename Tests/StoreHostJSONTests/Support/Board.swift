import Foundation

import JSONTestSupport
@testable import StoreHostJSON

/// A small document with the conformances `@ObservableState` generates, written by hand:
/// nested diffable structs, an array and a dictionary of them, optionals, and members
/// that are only `Encodable` (an enum) or only writable (strings, numbers).
struct Item: Codable, Equatable {
  var id: Int
  var title: String
  var done = false
  var note: String?
}

extension Item: JSONDiffable {
  func writeJSON(to writer: inout JSONWriter) throws {
    writer.beginObject()
    try writer.field("done", done)
    try writer.field("id", id)
    try writer.field("note", note)
    try writer.field("title", title)
    writer.endObject()
  }

  static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    patch.beginObject()
    try patch.field("done", old.done, new.done)
    try patch.field("id", old.id, new.id)
    try patch.field("note", old.note, new.note)
    try patch.field("title", old.title, new.title)
    patch.endObject()
  }
}

struct Board: Codable, Equatable {
  var name = "board"
  var items: [Item] = []
  var byKey: [String: Item] = [:]
  var pinned: Item?
  var tags: [String] = []
  var shape: Shape? = nil
  var filter = Filter.all
  var score = 0.0
}

extension Board: JSONDiffable {
  func writeJSON(to writer: inout JSONWriter) throws {
    writer.beginObject()
    try writer.field("byKey", byKey)
    try writer.field("filter", filter)
    try writer.field("items", items)
    try writer.field("name", name)
    try writer.field("pinned", pinned)
    try writer.field("score", score)
    try writer.field("shape", shape)
    try writer.field("tags", tags)
    writer.endObject()
  }

  static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    patch.beginObject()
    try patch.field("byKey", old.byKey, new.byKey)
    try patch.field("filter", old.filter, new.filter)
    try patch.field("items", old.items, new.items)
    try patch.field("name", old.name, new.name)
    try patch.field("pinned", old.pinned, new.pinned)
    try patch.field("score", old.score, new.score)
    try patch.field("shape", old.shape, new.shape)
    try patch.field("tags", old.tags, new.tags)
    patch.endObject()
  }
}

extension Board {
  /// A copy with one to three random edits anywhere in the document.
  func mutated(using generator: inout SeededGenerator) -> Board {
    var board = self
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      board.applyRandomEdit(using: &generator)
    }
    return board
  }

  private static let titles = ["", "milk", "a/b", "~x", "quote\"", "é😀", String(repeating: "z", count: 40)]

  private static func item(using generator: inout SeededGenerator) -> Item {
    Item(
      id: Int.random(in: 0...999, using: &generator), title: titles.randomElement(using: &generator)!,
      done: .random(using: &generator), note: Bool.random(using: &generator) ? nil : titles.randomElement(using: &generator))
  }

  private mutating func applyRandomEdit(using generator: inout SeededGenerator) {
    switch Int.random(in: 0..<12, using: &generator) {
    case 0: items.insert(Self.item(using: &generator), at: Int.random(in: 0...items.count, using: &generator))
    case 1 where !items.isEmpty: items.remove(at: Int.random(in: 0..<items.count, using: &generator))
    case 2 where !items.isEmpty: items[Int.random(in: 0..<items.count, using: &generator)].done.toggle()
    case 3 where !items.isEmpty:
      items[Int.random(in: 0..<items.count, using: &generator)].note = Bool.random(using: &generator) ? nil : "note"
    case 4: byKey[Self.titles.randomElement(using: &generator)!] = Bool.random(using: &generator) ? nil : Self.item(using: &generator)
    case 5: pinned = Bool.random(using: &generator) ? nil : Self.item(using: &generator)
    case 6: tags = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.titles.randomElement(using: &generator)! }
    case 7: shape = [nil, .point, .circle(radius: 1.5), .labeled("x", nil)].randomElement(using: &generator)!
    case 8: filter = Filter.allCases.randomElement(using: &generator)!
    case 9: score = [0, 0.1, -1e20, 12345.678].randomElement(using: &generator)!
    case 10: name = Self.titles.randomElement(using: &generator)!
    default: items.shuffle(using: &generator)
    }
  }
}
