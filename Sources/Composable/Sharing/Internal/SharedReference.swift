/// Reads and locks one shared value: a root ``SharedBox`` or a part of one.
protocol SharedReference<Value>: AnyObject, Sendable {
  associatedtype Value: Sendable
  /// The root box: the identity stores subscribe to.
  var box: AnySharedBox { get }
  var value: Value { get }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  /// This reference's part of a snapshot of the root value (used by test assertions).
  func read(fromRoot root: any Sendable) -> Value
  /// Changes this reference's part of a snapshot of the root value.
  func write<R>(intoRoot root: inout any Sendable, _ body: (inout Value) throws -> R) rethrows -> R
}

/// A part of another shared value, reached by a key path: `state.$signUp.phoneNumber`.
final class DerivedReference<Root: Sendable, Value: Sendable>: SharedReference, @unchecked Sendable {
  // A key path made from a literal without captures is immutable; it is only read here.
  private let parent: any SharedReference<Root>
  private let keyPath: WritableKeyPath<Root, Value>

  init(parent: any SharedReference<Root>, keyPath: WritableKeyPath<Root, Value>) {
    self.parent = parent
    self.keyPath = keyPath
  }

  var box: AnySharedBox { parent.box }

  var value: Value { parent.value[keyPath: keyPath] }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try parent.withLock { try body(&$0[keyPath: keyPath]) }
  }

  func read(fromRoot root: any Sendable) -> Value {
    parent.read(fromRoot: root)[keyPath: keyPath]
  }

  func write<R>(intoRoot root: inout any Sendable, _ body: (inout Value) throws -> R) rethrows -> R {
    try parent.write(intoRoot: &root) { try body(&$0[keyPath: keyPath]) }
  }
}
