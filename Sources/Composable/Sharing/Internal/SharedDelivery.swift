import Glibc

/// Delivers change notifications of shared values outside of store locks, and runs the
/// work observers leave for after the lock (``Store/afterSerialSection(_:)``).
///
/// A reducer that mutates a shared value runs under its store's lock. Calling the other
/// stores from there would take their locks while holding this one, and two stores doing
/// that at once would deadlock. So while a store reduces, changes are collected on its
/// thread and delivered by the store once it has released its lock.
enum SharedDelivery {
  /// The collector of the store reducing on the current thread, if any.
  private static let collectorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Boxes changed while their store held its lock, and work left for after it; used by
  /// one store under its lock.
  final class Collector {
    private(set) var boxes: [AnySharedBox] = []
    private var deferred: [() -> Void] = []

    func append(_ box: AnySharedBox) { boxes.append(box) }

    func deferUntilUnlocked(_ work: @escaping () -> Void) { deferred.append(work) }

    /// What was collected, emptying the lists.
    func take() -> Collected {
      guard !boxes.isEmpty || !deferred.isEmpty else { return Collected(boxes: [], deferred: []) }
      defer {
        boxes.removeAll()
        deferred.removeAll()
      }
      return Collected(boxes: boxes, deferred: deferred)
    }
  }

  /// What a store does once it released its lock: the deferred work, then the deliveries.
  struct Collected: @unchecked Sendable {
    let boxes: [AnySharedBox]
    /// Closures of observers, run on the thread that made the change.
    let deferred: [() -> Void]

    func run() {
      for work in deferred { work() }
      for box in boxes { box.deliver() }
    }
  }

  /// Runs `work` once the serial section of the store reducing on this thread ends, or now
  /// when none is.
  static func afterUnlock(_ work: @escaping () -> Void) {
    if let pointer = pthread_getspecific(collectorKey) {
      Unmanaged<Collector>.fromOpaque(pointer).takeUnretainedValue().deferUntilUnlocked(work)
    } else {
      work()
    }
  }

  /// Runs `body` collecting the changes it makes into `collector` instead of delivering them.
  static func collecting<R>(into collector: Collector, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(collectorKey)
    pthread_setspecific(collectorKey, Unmanaged.passUnretained(collector).toOpaque())
    defer { pthread_setspecific(collectorKey, previous) }
    return try body()
  }

  /// Delivers `box`'s change now, or hands it to the store reducing on this thread.
  static func changed(_ box: AnySharedBox) {
    if let pointer = pthread_getspecific(collectorKey) {
      Unmanaged<Collector>.fromOpaque(pointer).takeUnretainedValue().append(box)
    } else {
      box.deliver()
    }
  }
}
