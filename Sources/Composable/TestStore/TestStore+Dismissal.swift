import Synchronization

extension TestStore {
  /// Whether the feature dismissed itself (`await dismiss()` with `@Dependency(\.dismiss)`),
  /// as it asks the parent that presents it to when not under test.
  ///
  /// ```swift
  /// await store.send(\.destination.alert.confirmDeletion) { $0.destination = nil }
  /// #expect(store.isDismissed)
  /// ```
  public var isDismissed: Bool { dismissal.isDismissed }
}

/// Records a test store's feature dismissing itself.
final class TestDismissal: Sendable {
  private let dismissed = Atomic(false)

  var isDismissed: Bool { dismissed.load(ordering: .acquiring) }

  /// Called when the feature dismisses itself while nothing presents it.
  var record: @Sendable () async -> Void {
    { [self] in dismissed.store(true, ordering: .releasing) }
  }
}
