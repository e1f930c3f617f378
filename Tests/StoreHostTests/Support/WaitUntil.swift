/// A condition a test waited for did not come to hold in time.
struct TimedOut: Error {}

/// Waits until `condition` holds, looking every 10 ms, for at most `timeout`.
func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    guard ContinuousClock.now < deadline else { throw TimedOut() }
    try await Task.sleep(for: .milliseconds(10))
  }
}
