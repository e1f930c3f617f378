/// Checks `condition` until it holds or `timeout` passes, letting other tasks run in
/// between; returns whether it held.
func waitUntil(
  timeout: Duration,
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  var checks = 0
  while !condition() {
    guard clock.now < deadline else { return false }
    checks += 1
    if checks < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .microseconds(200))
    }
  }
  return true
}

/// Lets tasks that were just started or woken run until they wait again.
func settle(isolation: isolated (any Actor)? = #isolation) async {
  for _ in 0..<20 { await Task.yield() }
}
