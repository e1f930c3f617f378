import Composable
import Synchronization

/// Collects reported issues so a test can assert on them.
final class IssueCollector: IssueReporter {
  private let messages = Mutex<[String]>([])

  var reported: [String] { messages.withLock { $0 } }

  func reportIssue(_ message: String, at location: SourceLocation) {
    messages.withLock { $0.append(message) }
  }

  /// Runs `operation` with issues going to this collector instead of standard error.
  func collect<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await IssueReporters.$current.withValue([self], operation: operation)
  }
}

/// Records values from many tasks, in the order they arrive.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  var values: [Value] { storage.withLock { $0 } }

  func record(_ value: Value) { storage.withLock { $0.append(value) } }
}
