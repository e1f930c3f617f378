import Synchronization

/// A shared optional seen as its wrapped value: `Shared($syncUps[id: id])`. It remembers the
/// last value the optional held, so a holder still reads it after the optional became `nil`
/// (the element was removed); a change made then changes only that remembered value, and
/// does not bring the element back.
final class UnwrappedReference<Value: Sendable>: SharedReference, @unchecked Sendable {
  private let parent: any SharedReference<Value?>
  private let last: LastValue<Value>
  /// Keeps `last` up to date with every change of the root, through whichever reference.
  private let watching: SharedSubscription

  /// `nil` when the optional is `nil` now.
  init?(parent: any SharedReference<Value?>) {
    guard let value = parent.value else { return nil }
    let last = LastValue(value)
    self.parent = parent
    self.last = last
    self.watching = parent.box.watch { [weak last] change in
      guard let last, let value = parent.read(fromRoot: change.value) else { return }
      last.mutex.withLock { $0 = value }
    }
  }

  var box: AnySharedBox { parent.box }

  var value: Value { parent.value ?? last.mutex.withLock { $0 } }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // Nothing to change in the parent, so not a change of it either.
    guard parent.value != nil else { return try changeLastValue(body) }
    return try parent.withLock { optional in
      guard var value = optional else { return try changeLastValue(body) }
      defer { optional = value }
      return try body(&value)
    }
  }

  /// Changes the remembered value, not under its lock while `body` runs, so `body` may read it.
  private func changeLastValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    var value = last.mutex.withLock { $0 }
    defer { last.mutex.withLock { $0 = value } }
    return try body(&value)
  }

  func read(fromRoot root: any Sendable) -> Value {
    parent.read(fromRoot: root) ?? last.mutex.withLock { $0 }
  }

  func write<R>(intoRoot root: inout any Sendable, _ body: (inout Value) throws -> R) rethrows -> R {
    // A snapshot without the element: the change applies to a copy of the last value, as an
    // assertion must not change the live one.
    try parent.write(intoRoot: &root) { optional in
      var value = optional ?? last.mutex.withLock { $0 }
      defer { if optional != nil { optional = value } }
      return try body(&value)
    }
  }
}

/// The value an ``UnwrappedReference`` falls back on, shared with its watcher.
private final class LastValue<Value: Sendable>: Sendable {
  let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }
}
