@_spi(Internals) import Composable
import Testing

/// The store SPI TCA's own tests reach: its running effects, and `send` giving a `Task`.
@Suite struct StoreInternalsTests {
  /// Waits for ever when sent `true`.
  private static func waiting() -> Reduce<Int, Bool> {
    Reduce { _, wait in wait ? .run { _ in try await Task.never() } : .none }
  }

  @Test func effectCancellablesAreTheRunningEffects() async {
    let store = Store(initialState: 0) { Self.waiting() }
    store.send(false)
    #expect(store.effectCancellables.isEmpty)

    let task: StoreTask = store.send(true)
    #expect(store.effectCancellables.count == 1)
    task.cancel()
    await task.finish()
    #expect(store.effectCancellables.isEmpty)
  }

  @Test func sendGivesATaskOnlyWhenEffectsStarted() async {
    let store = Store(initialState: 0) { Self.waiting() }
    let none: Task<Void, Never>? = store.send(false)
    #expect(none == nil)

    let task: Task<Void, Never>? = store.send(true)
    #expect(task != nil)
    task?.cancel()
    await task?.value
    #expect(store.effectCancellables.isEmpty)
  }
}
