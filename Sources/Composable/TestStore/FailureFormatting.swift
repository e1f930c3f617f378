/// "1 received action was" or "2 received actions were", as TCA counts skipped actions.
func receivedActionsWere(_ count: Int) -> String {
  "\(count) received action" + (count == 1 ? " was" : "s were")
}

/// "action" or "actions".
func actions(_ count: Int) -> String { count == 1 ? "action" : "actions" }

/// How TCA's test store shows two values that should be equal: their diff (U+2212 and `+`
/// marks, indented by `indent`) and its legend, or each value in full when their dumps are
/// alike.
///
/// - Parameters:
///   - expected: The dump of the expected value.
///   - actual: The dump of the value there was.
///   - actualLabel: What the actual value is: "Actual", "Received".
///   - describe: The values' plain descriptions, for when their dumps are alike.
func mismatch(
  expected: DumpNode, actual: DumpNode, actualLabel: String, indent: Int = 4,
  describe: () -> (expected: String, actual: String)
) -> String {
  guard let difference = expected.diff(actual, format: .proportional) else {
    let descriptions = describe()
    return """
      Expected:
      \(descriptions.expected.indented(by: 2))

      \(actualLabel):
      \(descriptions.actual.indented(by: 2))
      """
  }
  return "\(difference.indented(by: indent))\n\n(Expected: −, \(actualLabel): +)"
}

/// The guidance after a timeout while effects still run; `isDefault` when the timeout is the
/// test store's own rather than one the assertion passed.
func inFlightEffectsSuggestion(timeoutIsDefault isDefault: Bool) -> String {
  let timeoutAdvice =
    isDefault
    ? #"configure this assertion with an explicit "timeout""#
    : #"try increasing the duration of this assertion's "timeout""#
  return """
    There are effects in-flight. If the effect that delivers this action uses a \
    clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
    enough time for it to perform the effect. If you are using a test clock/scheduler, \
    advance it so that the effects may complete, or consider using an immediate \
    clock/scheduler to immediately perform the effect instead.

    If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
    \(timeoutAdvice).
    """
}

/// " after 1.0 seconds", or nothing for a zero timeout.
func after(_ timeout: Duration) -> String {
  timeout > .zero ? " after \(timeout)" : ""
}
