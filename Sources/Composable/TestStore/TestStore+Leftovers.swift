import Foundation

extension TestStore {
  /// When the store goes away: fails for received actions that were not asserted and for each
  /// effect still running, as strictly as ``exhaustivity`` asks.
  func reportLeftovers() {
    reportUnhandledReceivedActions(at: initLocation)
    guard !reportedRunningEffects, hasRunningEffects() else { return }
    let running = sentEffects.filter { !$0.completion.isDone }
    guard !running.isEmpty else { return reportAssertion(effectStillRunning, at: lastLocation) }
    for sent in running {
      reportAssertion(effectStillRunning, at: sent.location)
    }
  }

  /// Fails for the received actions that were not asserted, leaving them to be received.
  func reportUnhandledReceivedActions(at location: TestLocation) {
    let unhandled = log.receivedActions
    guard !unhandled.isEmpty else { return }
    let list = unhandled.map { "    " + debugCaseOutput($0) }.joined(separator: "\n")
    reportAssertion(
      """
      The store received \(unhandled.count) unexpected \(actions(unhandled.count)).

        Unhandled actions:
      \(list)

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """, at: location)
  }

  /// Whether effects still run, giving ones that are just returning a few milliseconds to end.
  private func hasRunningEffects() -> Bool {
    for _ in 0..<50 {
      guard store.runningEffectCount > 0 else { return false }
      Thread.sleep(forTimeInterval: 0.0002)
    }
    return true
  }

  private var effectStillRunning: String {
    """
    An effect returned for this action is still running. It must complete before the end of \
    the test.

    To fix, inspect any effects the reducer returns for this action and ensure that all of \
    them complete by the end of the test. There are a few reasons why an effect may not have \
    completed:

    If using async/await in your effect, it may need a little bit of time to properly \
    finish. To fix you can simply perform "await store.finish()" at the end of your test.

    If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
    make sure that you wait enough time for it to perform the effect. If you are using a test \
    clock/scheduler, advance it so that the effects may complete, or consider using an \
    immediate clock/scheduler to immediately perform the effect instead.

    If you are returning a long-living effect (timers, notifications, subjects, etc.), \
    then make sure those effects are torn down by marking the effect ".cancellable" and \
    returning a corresponding cancellation effect ("Effect.cancel") from another action, or, \
    if your effect is driven by a Combine subject, send it a completion.

    If you do not wish to assert on these effects, perform "await \
    store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
    "store.exhaustivity = .off".
    """
  }
}
