@_spi(Logging) import Composable
import Testing

@Suite struct LoggerTests {
  private struct Logged: Sendable {}

  @Test func theLoggerRecordsStoresMadeAndReleasedWhileEnabled() {
    do { _ = Store<Logged, Int>(initialState: Logged()) {} }
    Logger.shared.isEnabled = true
    defer { Logger.shared.isEnabled = false }
    do { _ = Store<Logged, Logged>(initialState: Logged()) {} }
    #expect(
      Logger.shared.logs.filter { $0.contains("Logged") }
        == ["Store<Logged, Logged>.init", "Store<Logged, Logged>.deinit"])
  }
}
