extension TestStore {
  /// Reports an assertion that did not hold, as strictly as `exhaustivity` (the store's own
  /// by default) asks: a failure when exhaustive, a skipped assertion when skipped ones are
  /// shown, nothing otherwise.
  func reportAssertion(_ message: String, at location: TestLocation, as exhaustivity: Exhaustivity? = nil) {
    switch exhaustivity ?? self.exhaustivity {
    case .on:
      reportTestFailure(message, at: location)
    case .off(showSkippedAssertions: true):
      reportSkippedAssertion(message, at: location)
    case .off:
      break
    }
  }
}
