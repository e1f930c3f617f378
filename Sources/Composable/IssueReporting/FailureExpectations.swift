import Synchronization

/// One call of `XCTExpectFailure`: which failures it expects and whether one came.
final class FailureExpectation: @unchecked Sendable {
  let reason: String?
  let isStrict: Bool
  let location: SourceLocation
  // Called on the thread that records a failure, as XCTest calls its matchers.
  private let matcher: ((XCTIssue) -> Bool)?
  private let matched = Atomic<Bool>(false)

  init(reason: String?, isStrict: Bool, location: SourceLocation, matcher: ((XCTIssue) -> Bool)?) {
    self.reason = reason
    self.isStrict = isStrict
    self.location = location
    self.matcher = matcher
  }

  /// Whether `issue` is expected here; if so, remembers that it came.
  func expects(_ issue: XCTIssue) -> Bool {
    guard matcher?(issue) ?? true else { return false }
    matched.store(true, ordering: .relaxed)
    return true
  }

  var wasMatched: Bool { matched.load(ordering: .relaxed) }

  /// The failure of a strict expectation that nothing matched.
  var unmatchedMessage: String {
    "Failed due to unmatched expected failure" + (reason.map { ": \($0)" } ?? "")
  }
}

/// The failures tests expect: within a block (task-local), or for the rest of a test.
enum FailureExpectations {
  @TaskLocal static var scoped: [FailureExpectation] = []
  /// By the running test's id, as text.
  private static let perTest = Mutex<[String: [FailureExpectation]]>([:])

  /// Whether a failure with `message` at `location` is expected, by the innermost
  /// expectation that matches it.
  static func expect(_ message: String, at location: SourceLocation) -> Bool {
    let issue = XCTIssue(compactDescription: message, sourceLocation: location)
    if scoped.reversed().contains(where: { $0.expects(issue) }) { return true }
    guard let test = TestFrameworks.current?.currentTestID.map({ "\($0)" }) else { return false }
    let forTest = perTest.withLock { $0[test] ?? [] }
    return forTest.reversed().contains { $0.expects(issue) }
  }

  /// Expects failures for the rest of the running test; checks at its end that a strict
  /// one came.
  static func expectForRestOfTest(_ expectation: FailureExpectation) {
    guard let framework = TestFrameworks.current, let test = framework.currentTestID.map({ "\($0)" }) else { return }
    let isFirst = perTest.withLock { expectations in
      defer { expectations[test, default: []].append(expectation) }
      return expectations[test] == nil
    }
    guard isFirst else { return }
    framework.atEndOfTest {
      let expectations = perTest.withLock { $0.removeValue(forKey: test) } ?? []
      for expectation in expectations where expectation.isStrict && !expectation.wasMatched {
        framework.recordIssue(expectation.unmatchedMessage, at: expectation.location)
      }
    }
  }
}
