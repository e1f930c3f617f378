/// Where in a test a ``TestStore`` method was called: failures of that step are reported there.
public struct TestLocation: Sendable {
  public let fileID: StaticString
  public let filePath: StaticString
  public let line: UInt
  public let column: UInt
}
