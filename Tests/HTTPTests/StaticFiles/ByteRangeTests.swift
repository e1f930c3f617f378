import Testing

@testable import HTTP

@Suite struct ByteRangeTests {
  @Test(arguments: [
    ("bytes=0-4", ByteRange.satisfiable(0...4)),
    ("bytes=5-", .satisfiable(5...9)),
    ("bytes=-3", .satisfiable(7...9)),
    ("bytes=-30", .satisfiable(0...9)),
    ("bytes=8-100", .satisfiable(8...9)),
    ("bytes=10-", .unsatisfiable),
    ("bytes=-0", .unsatisfiable),
    ("bytes=4-2", .whole),
    ("bytes=0-1,4-5", .whole),
    ("bytes=x-1", .whole),
    ("items=0-1", .whole),
  ])
  func resolvesAgainstATenByteFile(header: String, expected: ByteRange) {
    #expect(ByteRange(header: header, size: 10) == expected)
  }

  @Test func absentHeaderIsWhole() {
    #expect(ByteRange(header: nil, size: 10) == .whole)
  }
}
