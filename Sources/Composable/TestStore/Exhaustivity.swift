/// How much of a feature's behavior a ``TestStore`` makes the test assert.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every effect must be asserted: anything
  /// left over fails the test. The default.
  case on
  /// Only what the test asserts is checked: unasserted state changes and received actions
  /// are skipped, and effects may outlive the test. With `showSkippedAssertions`, what was
  /// skipped is reported as a known issue (Swift Testing) or printed (XCTest).
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without showing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
