import Foundation

extension TestStore {
  /// At the end of an exhaustive test: fails for each received action that was not asserted
  /// and for each effect still running.
  func reportLeftovers() {
    guard exhaustivity == .on else { return }
    let unhandled = log.removeAllReceived()
    if !unhandled.isEmpty {
      reportTestFailure(
        """
        The store received \(unhandled.count) unexpected \(actions(unhandled.count)) after this one: …

        Unhandled actions:
        \(dumpList(unhandled.map(\.action)))

        Assert each with "await store.receive(…)", or call "await store.skipReceivedActions()".
        """, at: lastLocation)
    }
    guard !reportedRunningEffects, hasRunningEffects() else { return }
    let running = sentEffects.filter { !$0.completion.isDone }
    guard !running.isEmpty else {
      return reportTestFailure("An effect is still running at the end of the test. …\n\n\(runningEffectHelp)", at: lastLocation)
    }
    for sent in running {
      reportTestFailure(
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test. …

        Action:
        \(indent(sent.action))

        \(runningEffectHelp)
        """, at: sent.location)
    }
  }

  /// Whether effects still run, giving ones that are just returning a few milliseconds to end.
  private func hasRunningEffects() -> Bool {
    for _ in 0..<50 {
      guard store.runningEffectCount > 0 else { return false }
      Thread.sleep(forTimeInterval: 0.0002)
    }
    return true
  }

  private var runningEffectHelp: String {
    """
    To fix, make every effect end before the test does:
    • Assert the actions it sends with "await store.receive(…)", or wait for it with \
    "await store.finish()".
    • If it waits on a clock, advance the TestClock far enough.
    • If it is long-living (a timer, a stream), make it ".cancellable(id:)" and send the \
    action that cancels it, or call "await store.skipInFlightEffects()".
    """
  }
}
