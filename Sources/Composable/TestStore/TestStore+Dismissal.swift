import Synchronization

extension TestStore {
  /// Whether the feature dismissed itself (`await dismiss()` with `@Dependency(\.dismiss)`),
  /// as it asks the parent that presents it to when not under test.
  ///
  /// Dismissing ends the feature: its running effects (a timer started when it appeared, say)
  /// are cancelled, as the parent's presentation would cancel them.
  ///
  /// ```swift
  /// await store.send(\.destination.alert.confirmDeletion) { $0.destination = nil }
  /// #expect(store.isDismissed)
  /// ```
  public var isDismissed: Bool { dismissal.isDismissed }
}

/// Records a test store's feature dismissing itself, and ends its effects.
final class TestDismissal: Sendable {
  private let dismissed = Atomic(false)
  private let cancelEffects = Mutex<(@Sendable () -> Void)?>(nil)

  var isDismissed: Bool { dismissed.load(ordering: .acquiring) }

  /// Makes a dismissal cancel every running effect with `cancel`: the test store's, once it
  /// has its inner store.
  func cancelsEffects(with cancel: @escaping @Sendable () -> Void) {
    cancelEffects.withLock { $0 = cancel }
  }

  /// Called when the feature dismisses itself while nothing presents it.
  var record: @Sendable () async -> Void {
    { [self] in
      dismissed.store(true, ordering: .releasing)
      cancelEffects.withLock { $0 }?()
    }
  }
}
