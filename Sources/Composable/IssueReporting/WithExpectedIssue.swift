/// Runs `body`, expecting it to report an issue or throw: the issue does not fail the
/// test, and, unless `isIntermittent`, the test fails when none comes.
public func withExpectedIssue(
  _ message: String? = nil,
  isIntermittent: Bool = false,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: () throws -> Void
) {
  let expectation = FailureExpectation(
    reason: message, isStrict: !isIntermittent,
    location: SourceLocation(fileID, filePath, line, column), matcher: nil)
  defer { expectation.checkMatched() }
  FailureExpectations.$scoped.withValue(FailureExpectations.scoped + [expectation]) {
    do { try body() } catch { expectation.expectThrown(error) }
  }
}

/// Runs the async `body`, expecting it to report an issue or throw.
public func withExpectedIssue(
  _ message: String? = nil,
  isIntermittent: Bool = false,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: () async throws -> Void
) async {
  let expectation = FailureExpectation(
    reason: message, isStrict: !isIntermittent,
    location: SourceLocation(fileID, filePath, line, column), matcher: nil)
  defer { expectation.checkMatched() }
  await FailureExpectations.$scoped.withValue(FailureExpectations.scoped + [expectation]) {
    do { try await body() } catch { expectation.expectThrown(error) }
  }
}

extension FailureExpectation {
  /// Counts an error thrown out of the expecting block as its expected issue.
  func expectThrown(_ error: any Error) {
    _ = expects(XCTIssue(compactDescription: "Caught error: \(error)", sourceLocation: location))
  }
}
