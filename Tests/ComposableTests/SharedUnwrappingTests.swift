import Composable
import Testing

private struct Meeting: Equatable, Identifiable {
  let id: Int
  var title: String
}

private func meetings() -> Shared<IdentifiedArrayOf<Meeting>> {
  Shared([Meeting(id: 1, title: "Design"), Meeting(id: 2, title: "Standup")])
}

/// `Shared($collection[id: id])`: one element of a shared collection, shared on its own.
@Suite struct SharedUnwrappingTests {
  @Test func sharesTheElementWithItsId() throws {
    let all = meetings()
    let standup = try #require(Shared(all[id: 2]))
    #expect(standup.wrappedValue == Meeting(id: 2, title: "Standup"))
    #expect(Shared(all[id: 3]) == nil, "no element has that id")
  }

  @Test func changesGoBothWays() throws {
    let all = meetings()
    let design = try #require(Shared(all[id: 1]))
    design.withLock { $0.title = "Design review" }
    #expect(all.wrappedValue[id: 1]?.title == "Design review")
    #expect(all.wrappedValue[id: 2]?.title == "Standup", "the other element is left alone")
    all.withLock { $0[id: 1]?.title = "Retro" }
    #expect(design.wrappedValue.title == "Retro")
    #expect(design.title.wrappedValue == "Retro", "a part of it is shared too")
  }

  @Test func keepsItsLastValueAfterTheElementIsRemoved() throws {
    let all = meetings()
    let design = try #require(Shared(all[id: 1]))
    all.withLock { $0[id: 1]?.title = "Last look" }
    all.withLock { _ = $0.remove(id: 1) }
    #expect(design.wrappedValue == Meeting(id: 1, title: "Last look"))
    design.withLock { $0.title = "Too late" }
    #expect(all.wrappedValue.ids == [2], "a change after the removal does not bring it back")
    #expect(design.wrappedValue.title == "Too late")
  }

  @Test func followsTheElementAgainWhenOneWithItsIdComesBack() throws {
    let all = meetings()
    let design = try #require(Shared(all[id: 1]))
    all.withLock { _ = $0.remove(id: 1) }
    all.withLock { $0.append(Meeting(id: 1, title: "Design, again")) }
    #expect(design.wrappedValue.title == "Design, again")
    design.withLock { $0.title = "Design, third time" }
    #expect(all.wrappedValue[id: 1]?.title == "Design, third time")
  }

  @Test func unwrapsAKeyedOptional() throws {
    @Shared(.inMemory("SharedUnwrappingTests.currentMeeting")) var current: Meeting? = nil
    #expect(Shared($current) == nil)
    $current.withLock { $0 = Meeting(id: 7, title: "Planning") }
    let unwrapped = try #require(Shared($current))
    unwrapped.withLock { $0.title = "Planning, late" }
    #expect(current?.title == "Planning, late")
  }

  @Test func readersUnwrapToo() throws {
    let all = meetings()
    let fromShared = try #require(SharedReader(all[id: 2]))
    let fromReader = try #require(SharedReader(all.reader[id: 2]))
    all.withLock { $0[id: 2]?.title = "Standup, short" }
    #expect(fromShared.wrappedValue.title == "Standup, short")
    #expect(fromReader.wrappedValue.title == "Standup, short")
    all.withLock { $0.removeAll() }
    #expect(fromShared.wrappedValue.title == "Standup, short")
    #expect(SharedReader(all.reader[id: 2]) == nil)
  }
}
