import Testing

@testable import Composable

private struct First: Sendable { let label: String }
private struct Second: Sendable { let label: String }

@Suite struct MadeOncePerTypeTests {
  @Test func aValueIsMadeOnceAndKeptByItsType() {
    let first = MadeOncePerType.value { First(label: "made") }
    let again = MadeOncePerType.value { First(label: "made again") }
    let second = MadeOncePerType.value { Second(label: "another type") }
    #expect(first.label == "made")
    #expect(again.label == "made")
    #expect(second.label == "another type")
  }
}
