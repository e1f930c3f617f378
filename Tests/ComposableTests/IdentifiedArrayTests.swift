import Composable
import Foundation
import Testing

private struct Item: Identifiable, Equatable, Codable {
  var id: Int
  var name: String
}

@Suite struct IdentifiedArrayTests {
  @Test func keepsOrderAndLooksUpByID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 3, name: "c"), Item(id: 1, name: "a")]
    items.append(Item(id: 2, name: "b"))
    #expect(items.ids == [3, 1, 2])
    #expect(items[id: 1]?.name == "a")
    #expect(items.index(id: 2) == 2)
    items[id: 1]?.name = "A"
    #expect(items[1].name == "A")
  }

  @Test func removingTheEndsKeepsTheRestIdentified() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 3, name: "c"), Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    #expect(items.removeLast() == Item(id: 2, name: "b"))
    #expect(items.removeFirst() == Item(id: 3, name: "c"))
    #expect(items.ids == [1])
    #expect(items.index(id: 1) == 0)
    #expect(items[id: 3] == nil)
  }

  @Test func filteringKeepsTheElementsIdentified() {
    let items: IdentifiedArrayOf<Item> = [Item(id: 3, name: "c"), Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let filtered: IdentifiedArrayOf<Item> = items.filter { $0.id != 1 }
    #expect(filtered.ids == [3, 2])
    #expect(filtered[id: 2]?.name == "b")
    #expect(filtered.index(id: 2) == 1)
  }

  @Test func appendingAnExistingIDDoesNothing() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    let result = items.append(Item(id: 1, name: "other"))
    #expect(!result.inserted)
    #expect(items.elements == [Item(id: 1, name: "a")])
  }

  @Test func removalsKeepLookupsRight() {
    var items = IdentifiedArrayOf<Item>(uniqueElements: (0..<6).map { Item(id: $0, name: "\($0)") })
    items.remove(id: 0)
    items.remove(at: 0)
    items.removeAll { $0.id == 4 }
    #expect(items.ids == [2, 3, 5])
    #expect(items.index(id: 5) == 2)
    items[id: 3] = nil
    #expect(items.ids == [2, 5])
    items.insert(Item(id: 9, name: "9"), at: 0)
    #expect(items.ids == [9, 2, 5])
    #expect(items.index(id: 5) == 2)
    items.move(fromOffsets: [0], toOffset: 3)
    #expect(items.ids == [2, 5, 9])
    #expect(items[id: 9]?.name == "9")
  }

  @Test func elementsRemovedByAPredicateAreNoLongerFoundByID() {
    var items = IdentifiedArrayOf<Item>(uniqueElements: (0..<4).map { Item(id: $0, name: "\($0)") })
    items.removeAll { $0.id.isMultiple(of: 2) }
    #expect(items.ids == [1, 3])
    #expect(items[id: 0] == nil)
    #expect(items.index(id: 2) == nil)
    items[id: 2] = Item(id: 2, name: "back")
    #expect(items.ids == [1, 3, 2])
  }

  @Test func codableAsAJSONArray() throws {
    let items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(items), as: UTF8.self)
    #expect(json == #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#)
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: Data(json.utf8))
    #expect(decoded == items)
  }

  @Test func decodingDuplicateIDsFails() {
    let json = #"[{"id":1,"name":"a"},{"id":1,"name":"b"}]"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: Data(json.utf8))
    }
  }
}
