import Synchronization

/// What a test store shares with the reducer running inside its store: the dependencies to
/// run with, and each action reduced with the state before and after it. Effects reduce on
/// their own tasks, so every access takes the lock.
final class TestStoreLog<State: Sendable, Action: Sendable>: Sendable {
  /// One reduced action.
  struct Step: Sendable {
    var action: Action
    var before: State
    var after: State
    /// The values of the shared state `after` holds, as the action left them.
    var sharedAfter: SharedValues
  }

  private struct Contents {
    var dependencies: DependencyValues
    var sent: Step?
    var received: [Step] = []
  }

  private let contents: Mutex<Contents>

  init(dependencies: DependencyValues) {
    self.contents = Mutex(Contents(dependencies: dependencies))
  }

  var dependencies: DependencyValues {
    get { contents.withLock { $0.dependencies } }
    set { contents.withLock { $0.dependencies = newValue } }
  }

  func recordSent(_ step: Step) { contents.withLock { $0.sent = step } }

  /// The step of the action the test sent last, once.
  func takeSent() -> Step? {
    contents.withLock { contents in
      defer { contents.sent = nil }
      return contents.sent
    }
  }

  func recordReceived(_ step: Step) { contents.withLock { $0.received.append(step) } }

  var receivedCount: Int { contents.withLock { $0.received.count } }

  /// The actions received and not yet asserted, in order.
  var receivedActions: [Action] { contents.withLock { $0.received.map(\.action) } }

  func containsReceived(where matches: (Action) -> Bool) -> Bool {
    contents.withLock { $0.received.contains { matches($0.action) } }
  }

  /// Removes and returns the received steps up to and including the first that `matches`:
  /// the skipped ones and the match; `nil` (removing nothing) when none matches.
  func removeReceived(throughFirst matches: (Action) -> Bool) -> (skipped: [Step], match: Step)? {
    contents.withLock { contents in
      guard let index = contents.received.firstIndex(where: { matches($0.action) }) else { return nil }
      let skipped = Array(contents.received[..<index])
      let match = contents.received[index]
      contents.received.removeFirst(index + 1)
      return (skipped, match)
    }
  }

  func removeAllReceived() -> [Step] {
    contents.withLock { contents in
      defer { contents.received.removeAll() }
      return contents.received
    }
  }
}
