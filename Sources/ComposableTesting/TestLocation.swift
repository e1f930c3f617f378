/// Where in a test a ``TestStore`` method was called: failures of that step are reported there.
struct TestLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}
