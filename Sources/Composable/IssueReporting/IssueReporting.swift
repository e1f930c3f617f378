import Foundation
import Synchronization

/// Where a reported issue happened in the user's code.
public struct SourceLocation: Sendable, Equatable {
  public var fileID: String
  public var filePath: String
  public var line: Int
  public var column: Int

  public init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// Receives reports of misuse, such as a dependency used in a test without a test value.
///
/// `ComposableTesting` installs one that fails the running XCTest or Swift Testing test.
public protocol IssueReporter: Sendable {
  func reportIssue(_ message: String, at location: SourceLocation)
}

/// The reporters that ``reportIssue(_:fileID:filePath:line:column:)`` calls.
public enum IssueReporters {
  /// Reporters for the current task and the tasks it creates; `nil` means ``global``.
  @TaskLocal public static var current: [any IssueReporter]?

  private static let globalReporters = Mutex<[any IssueReporter]>([StandardErrorIssueReporter()])

  /// The reporters used where no task-local reporters are set. Starts with standard error.
  public static var global: [any IssueReporter] {
    get { globalReporters.withLock { $0 } }
    set { globalReporters.withLock { $0 = newValue } }
  }
}

/// Reports a misuse of the library at the caller's location to every current reporter.
public func reportIssue(
  _ message: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let location = SourceLocation(
    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  if FailureExpectations.expect(message, at: location) {
    TestFrameworks.current?.recordExpectedFailure(message, at: location)
    return
  }
  for reporter in IssueReporters.current ?? IssueReporters.global {
    reporter.reportIssue(message, at: location)
  }
}

/// Writes each issue to standard error.
public struct StandardErrorIssueReporter: IssueReporter {
  public init() {}

  public func reportIssue(_ message: String, at location: SourceLocation) {
    FileHandle.standardError.write(
      Data("\(location.fileID):\(location.line): issue: \(message)\n".utf8))
  }
}
