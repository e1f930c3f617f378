import Dispatch
import Foundation
import Synchronization

/// The identity of one shared value: its change counter and the stores subscribed to it.
/// ``Shared`` values that share a box see the same value.
class AnySharedBox: @unchecked Sendable {
  private let subscribers = Mutex(Subscribers())
  private let watchers = Mutex(Subscribers())
  /// Grows by one with each change of the value.
  let generation = Atomic<UInt64>(0)
  /// Whether the box is the value of a key (``SharedRegistry``), rather than a value of its
  /// own (`Shared(0)`, or one decoded from JSON).
  let isKeyed: Bool

  init(isKeyed: Bool) {
    self.isKeyed = isKeyed
  }

  private struct Subscribers {
    var nextID: UInt64 = 0
    var callbacks: [UInt64: @Sendable (SharedChange) -> Void] = [:]

    mutating func add(_ callback: @escaping @Sendable (SharedChange) -> Void) -> UInt64 {
      defer { nextID += 1 }
      callbacks[nextID] = callback
      return nextID
    }
  }

  /// The current value, type-erased.
  var anyValue: any Sendable { fatalError("abstract") }

  /// Calls `onChange` with the new generation and value after each change, until the
  /// returned subscription is cancelled or released.
  func subscribe(_ onChange: @escaping @Sendable (SharedChange) -> Void) -> SharedSubscription {
    add(onChange, toWatchers: false)
  }

  /// Calls `onChange` right after each change, on the thread that made it, until the returned
  /// subscription is cancelled or released: for a reference that must see every value, where
  /// a subscriber may hear of two changes made in one action only once, after both.
  func watch(_ onChange: @escaping @Sendable (SharedChange) -> Void) -> SharedSubscription {
    add(onChange, toWatchers: true)
  }

  private func add(
    _ onChange: @escaping @Sendable (SharedChange) -> Void, toWatchers: Bool
  ) -> SharedSubscription {
    let id = withList(watchers: toWatchers) { $0.add(onChange) }
    return SharedSubscription { [weak self] in
      _ = self?.withList(watchers: toWatchers) { $0.callbacks.removeValue(forKey: id) }
    }
  }

  private func withList<R>(watchers: Bool, _ body: (inout Subscribers) -> R) -> R {
    watchers ? self.watchers.withLock { body(&$0) } : subscribers.withLock { body(&$0) }
  }

  /// Records a change: calls the watchers now, and the subscribers now or after the store
  /// reducing on this thread has released its lock.
  func didChange() {
    let generation = generation.add(1, ordering: .sequentiallyConsistent).newValue
    if let watching = watchers.withLock({ $0.callbacks.isEmpty ? nil : Array($0.callbacks.values) }) {
      let change = SharedChange(generation: generation, value: anyValue)
      for callback in watching { callback(change) }
    }
    SharedDelivery.changed(self)
  }

  /// Calls every subscriber with the current generation. Called with no lock held.
  ///
  /// Subscribers are stores, each with a lock of its own. Many of them (a value shared by
  /// thousands of sessions) are called in the background, a slice per core, so that the
  /// change's own action is not held up by thousands of stores publishing.
  func deliver() {
    let callbacks = subscribers.withLock { Array($0.callbacks.values) }
    // Read once here, so thousands of subscribers need not each take the value's lock.
    let generation = generation.load(ordering: .sequentiallyConsistent)
    let current = SharedChange(generation: generation, value: anyValue)
    guard callbacks.count >= Self.parallelDeliveryThreshold else {
      for callback in callbacks { callback(current) }
      return
    }
    let slices = ProcessInfo.processInfo.activeProcessorCount
    DispatchQueue.global().async {
      DispatchQueue.concurrentPerform(iterations: slices) { slice in
        for index in stride(from: slice, to: callbacks.count, by: slices) { callbacks[index](current) }
      }
    }
  }

  /// How many subscribers make ``deliver()`` call them in the background, in parallel.
  private static let parallelDeliveryThreshold = 256
}

/// A change of a shared value as its subscribers hear of it: the generation, and the root
/// value at that generation or a later one.
struct SharedChange: Sendable {
  let generation: UInt64
  let value: any Sendable
}

/// A root shared value: the value under a lock, with the key that loads and saves it.
final class SharedBox<Value: Sendable>: AnySharedBox, SharedReference, @unchecked Sendable {
  /// How changes reach the key's storage.
  enum Storing: Sendable {
    /// Not at all: a value without a key.
    case none
    /// The changed value is saved after each change.
    case save(@Sendable (Value) -> Void)
    /// The change itself goes to the key, which applies it to the latest stored value and
    /// tells the box's subscription of the result (``AtomicSharedKey``).
    case update(@Sendable (_ current: Value, _ change: (inout Value) throws -> Void) throws -> Value)
  }

  private let storage: Mutex<Value>
  private let storing: Storing
  /// Deregisters the box from ``SharedRegistry`` and cancels the key's subscription.
  private let cleanup = Mutex<[SharedSubscription]>([])

  init(value: Value, storing: Storing = .none, isKeyed: Bool = false) {
    self.storage = Mutex(value)
    self.storing = storing
    super.init(isKeyed: isKeyed)
  }

  override var anyValue: any Sendable { value }

  var box: AnySharedBox { self }

  var value: Value {
    if changesUnderWay.load(ordering: .acquiring) > 0, let changing = changes.withLock({ $0[Self.currentThread] }) {
      return changing.pointer.pointee
    }
    return storage.withLock { $0 }
  }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // Set synchronously, under the lock.
    nonisolated(unsafe) var result: R?
    switch storing {
    case .none:
      try storage.withLock { value in result = try change(&value, body) }
    case .save(let save):
      try storage.withLock { value in
        result = try change(&value, body)
        save(value)
      }
    case .update(let update):
      // The body runs on the stored value, once more for each writer that came first,
      // synchronously, so its last result is the one to return; without the lock, so
      // reads never wait for the key's storage. The key hands the value it stored (or a
      // later one) back through the box's subscription, in order with other changes.
      nonisolated(unsafe) var last: R?
      let current = value
      try passingErrors { _ = try update(current) { latest in last = try change(&latest, body) } }
      return last!
    }
    didChange()
    return result!
  }

  /// The values being changed, by the thread running each change's body. That thread may
  /// read the value meanwhile, through another reference to it: `$syncUps.withLock { _ =
  /// $0.remove(id: state.syncUp.id) }`, where `state.$syncUp` is an element of `syncUps`.
  /// Changes a key applies (``Storing/update``) run outside the lock, so several threads
  /// may be changing copies of the value at once, each reading its own.
  private let changes = Mutex<[UInt: Changing]>([:])
  /// How many changes are under way, so that a read while none is takes no second lock.
  private let changesUnderWay = Atomic<Int>(0)

  private static var currentThread: UInt { pthread_self() }

  /// A value being changed, read only by the thread changing it.
  private struct Changing: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Value>
  }

  /// Runs `body` on `value`, letting this thread read it meanwhile.
  private func change<R>(_ value: inout Value, _ body: (inout Value) throws -> R) rethrows -> R {
    try withUnsafeMutablePointer(to: &value) { pointer in
      let thread = Self.currentThread
      let enclosing = changes.withLock { $0.updateValue(Changing(pointer: pointer), forKey: thread) }
      changesUnderWay.add(1, ordering: .releasing)
      defer {
        changesUnderWay.subtract(1, ordering: .releasing)
        changes.withLock { $0[thread] = enclosing }
      }
      return try body(&pointer.pointee)
    }
  }

  /// Sets a value loaded from the key's storage after a change made outside this process
  /// or box, without saving it back.
  func replace(with newValue: Value) {
    storage.withLock { $0 = newValue }
    didChange()
  }

  /// Sets the value `load` reads, under the lock, after a change made outside this process
  /// or box, without saving it back: of several threads doing so at once, the last to take
  /// the lock reads the newest value.
  func replace(loading load: () -> Value) {
    storage.withLock { $0 = load() }
    didChange()
  }

  /// Keeps `subscription` until the box is released.
  func retain(_ subscription: SharedSubscription) {
    cleanup.withLock { $0.append(subscription) }
  }

  func read(fromRoot root: any Sendable) -> Value { root as! Value }

  func write<R>(intoRoot root: inout any Sendable, _ body: (inout Value) throws -> R) rethrows -> R {
    var value = root as! Value
    defer { root = value }
    return try body(&value)
  }
}

/// Runs `body`, passing on its errors. Typed, as `Mutex.withLock` is, so a `rethrows`
/// function may call it with a stored closure whose only errors are those of the closure
/// it was given (a key's update, which throws only what the change throws).
private func passingErrors<E: Error>(_ body: () throws(E) -> Void) throws(E) {
  try body()
}
