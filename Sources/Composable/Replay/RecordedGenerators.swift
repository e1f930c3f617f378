import Foundation
import Synchronization

extension UUIDGenerator {
  /// Each of `uuids` in turn, as a recording drew them; asking for one more reports an
  /// issue (a test fails) and gives the last again.
  public static func sequence(_ uuids: [UUID]) -> Self {
    let next = RecordedValues(uuids, name: "UUID")
    return Self { next() }
  }
}

extension DateGenerator {
  /// Each of `dates` in turn, as a recording read them; asking for one more reports an
  /// issue (a test fails) and gives the last again.
  public static func sequence(_ dates: [Date]) -> Self {
    let next = RecordedValues(dates, name: "date")
    return Self { next() }
  }
}

/// Recorded values handed out in order.
private final class RecordedValues<Value: Sendable>: Sendable {
  private let values: [Value]
  private let name: String
  private let next = Mutex(0)

  init(_ values: [Value], name: String) {
    precondition(!values.isEmpty, "a sequence of recorded values needs at least one")
    self.values = values
    self.name = name
  }

  func callAsFunction() -> Value {
    let index = next.withLock { index in
      defer { index += 1 }
      return index
    }
    guard index < values.count else {
      reportIssue("Asked for \(name) number \(index + 1), but only \(values.count) were recorded.")
      return values[values.count - 1]
    }
    return values[index]
  }
}
