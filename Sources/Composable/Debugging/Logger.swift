import Synchronization

/// Records when stores are made and released, while enabled: TCA's tests read it to check
/// stores' lifetimes (`Logger.shared.isEnabled = true`, then `Logger.shared.logs`).
@_spi(Logging) public final class Logger: Sendable {
  /// The one logger stores write to.
  public static let shared = Logger()

  private let enabled = Atomic<Bool>(false)
  private let entries = Mutex<[String]>([])

  /// Whether events are recorded; off at first.
  public var isEnabled: Bool {
    get { enabled.load(ordering: .relaxed) }
    set { enabled.store(newValue, ordering: .relaxed) }
  }

  /// The events recorded so far, oldest first: `"Store<(), ()>.init"`.
  public var logs: [String] { entries.withLock { $0 } }

  /// Records `event` when enabled.
  public func log(_ event: @autoclosure () -> String) {
    guard isEnabled else { return }
    let event = event()
    entries.withLock { $0.append(event) }
  }

  /// Forgets the events recorded so far.
  public func clear() { entries.withLock { $0.removeAll() } }
}
