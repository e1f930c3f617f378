/// Expects the rest of the running test to record a failure, so that it passes when the
/// failure is the expected one: `XCTExpectFailure { $0.compactDescription.hasSuffix("…") }`.
///
/// Failures that `issueMatcher` rejects fail the test as usual. When `strict` (the
/// default), the test fails if no matching failure is recorded by its end (under XCTest).
public func XCTExpectFailure(
  _ failureReason: String? = nil,
  enabled: Bool? = nil,
  strict: Bool? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  issueMatcher: ((XCTIssue) -> Bool)? = nil
) {
  guard enabled ?? true else { return }
  FailureExpectations.expectForRestOfTest(
    FailureExpectation(
      reason: failureReason, isStrict: strict ?? true,
      location: SourceLocation(fileID, filePath, line, column), matcher: issueMatcher))
}

/// Expects `failingBlock` to record a failure that `issueMatcher` accepts:
/// `XCTExpectFailure { store.send(.tap) } issueMatcher: { $0.compactDescription.contains("…") }`.
///
/// When `strict` (the default), the test fails if the block records no such failure.
@discardableResult
public func XCTExpectFailure<R>(
  _ failureReason: String? = nil,
  enabled: Bool? = nil,
  strict: Bool? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  failingBlock: () throws -> R,
  issueMatcher: ((XCTIssue) -> Bool)? = nil
) rethrows -> R {
  guard enabled ?? true else { return try failingBlock() }
  let expectation = FailureExpectation(
    reason: failureReason, isStrict: strict ?? true,
    location: SourceLocation(fileID, filePath, line, column), matcher: issueMatcher)
  defer { expectation.checkMatched() }
  return try FailureExpectations.$scoped.withValue(FailureExpectations.scoped + [expectation]) {
    try failingBlock()
  }
}

/// Expects the async `failingBlock` to record a failure that `issueMatcher` accepts.
@discardableResult
public func XCTExpectFailure<R>(
  _ failureReason: String? = nil,
  enabled: Bool? = nil,
  strict: Bool? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  failingBlock: () async throws -> R,
  issueMatcher: ((XCTIssue) -> Bool)? = nil
) async rethrows -> R {
  guard enabled ?? true else { return try await failingBlock() }
  let expectation = FailureExpectation(
    reason: failureReason, isStrict: strict ?? true,
    location: SourceLocation(fileID, filePath, line, column), matcher: issueMatcher)
  defer { expectation.checkMatched() }
  return try await FailureExpectations.$scoped.withValue(FailureExpectations.scoped + [expectation]) {
    try await failingBlock()
  }
}

/// Expects the rest of the running test to record a failure that `options` accepts.
public func XCTExpectFailure(
  _ failureReason: String? = nil,
  options: XCTExpectedFailure.Options,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
  XCTExpectFailure(
    failureReason, enabled: options.isEnabled, strict: options.isStrict,
    fileID: fileID, filePath: filePath, line: line, column: column, issueMatcher: options.issueMatcher)
}

/// Expects `failingBlock` to record a failure that `options` accepts.
@discardableResult
public func XCTExpectFailure<R>(
  _ failureReason: String? = nil,
  options: XCTExpectedFailure.Options,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  failingBlock: () throws -> R
) rethrows -> R {
  try XCTExpectFailure(
    failureReason, enabled: options.isEnabled, strict: options.isStrict,
    fileID: fileID, filePath: filePath, line: line, column: column,
    failingBlock: failingBlock, issueMatcher: options.issueMatcher)
}

extension SourceLocation {
  init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
    self.init(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

extension FailureExpectation {
  /// Fails the running test when this strict expectation saw no failure.
  func checkMatched() {
    guard isStrict, !wasMatched else { return }
    recordUnexpectedly(unmatchedMessage, at: location)
  }
}

/// Fails the running test, bypassing expectations; without a test framework, says so on
/// standard error.
func recordUnexpectedly(_ message: String, at location: SourceLocation) {
  guard let framework = TestFrameworks.current else {
    StandardErrorIssueReporter().reportIssue(message, at: location)
    return
  }
  framework.recordIssue(message, at: location)
}
