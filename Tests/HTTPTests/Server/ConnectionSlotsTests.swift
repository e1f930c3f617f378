import Testing

@testable import HTTP

private final class Item {
  let name: String
  init(_ name: String) { self.name = name }
}

@Suite struct ConnectionSlotsTests {
  @Test func findsEachConnectionByItsToken() {
    var slots = ConnectionSlots<Item>()
    let first = slots.reserveToken()
    slots.insert(Item("a"), at: first)
    let second = slots.reserveToken()
    slots.insert(Item("b"), at: second)
    #expect(first != second)
    #expect(first >= ConnectionSlots<Item>.firstToken && second >= ConnectionSlots<Item>.firstToken)
    #expect(slots[first]?.name == "a")
    #expect(slots[second]?.name == "b")
    #expect(slots.count == 2)
    #expect(slots[0] == nil && slots[1] == nil && slots[2] == nil)
  }

  @Test func aRemovedTokenFindsNothingEvenOnceItsSlotIsReused() {
    var slots = ConnectionSlots<Item>()
    let old = slots.reserveToken()
    slots.insert(Item("old"), at: old)
    slots.remove(old)
    #expect(slots[old] == nil)
    #expect(slots.isEmpty)
    let new = slots.reserveToken()
    slots.insert(Item("new"), at: new)
    // The same slot, a new generation: a late event for the old connection misses.
    #expect(new & 0xFFFF_FFFF == old & 0xFFFF_FFFF)
    #expect(new != old)
    #expect(slots[old] == nil)
    #expect(slots[new]?.name == "new")
    // Removing the old token again leaves the new connection alone.
    slots.remove(old)
    #expect(slots[new]?.name == "new")
    #expect(slots.count == 1)
  }

  @Test func aReservedTokenGivenBackLeavesNoConnection() {
    var slots = ConnectionSlots<Item>()
    let token = slots.reserveToken()
    #expect(slots.count == 1)
    slots.remove(token)
    #expect(slots.isEmpty)
    #expect(slots.all.isEmpty)
  }

  @Test func onlyTickingConnectionsAreTicked() {
    var slots = ConnectionSlots<Item>()
    var tokens: [UInt64] = []
    for name in ["a", "b", "c"] {
      let token = slots.reserveToken()
      slots.insert(Item(name), at: token)
      tokens.append(token)
    }
    #expect(slots.ticking.map(\.name) == ["a", "b", "c"])
    slots.setTicks(false, at: tokens[1])
    #expect(slots.ticking.map(\.name) == ["a", "c"])
    #expect(slots.all.map(\.name) == ["a", "b", "c"])
    slots.setTicks(true, at: tokens[1])
    slots.remove(tokens[0])
    #expect(slots.ticking.map(\.name) == ["b", "c"])
    // A stale token changes nothing.
    slots.setTicks(false, at: tokens[0])
    #expect(slots.ticking.map(\.name) == ["b", "c"])
  }

  @Test func matchesADictionaryOverManyOpensAndCloses() {
    var slots = ConnectionSlots<Item>()
    var expected: [UInt64: String] = [:]
    var removed: [UInt64] = []
    var generator = SystemRandomNumberGenerator()
    for step in 0..<2_000 {
      if expected.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
        let token = slots.reserveToken()
        #expect(expected[token] == nil)
        slots.insert(Item("\(step)"), at: token)
        expected[token] = "\(step)"
      } else {
        let token = expected.keys.randomElement(using: &generator)!
        slots.remove(token)
        expected[token] = nil
        removed.append(token)
      }
    }
    #expect(slots.count == expected.count)
    for (token, name) in expected { #expect(slots[token]?.name == name) }
    for token in removed { #expect(slots[token] == nil) }
  }
}
