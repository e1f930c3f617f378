/// A value shared by features, stores and sessions: a reference, so every copy of a state
/// holding it sees the same value, and a change made through one is seen through all.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Shared var count: Int                            // passed in: State(count: $count)
///   @Shared(.inMemory("visitors")) var visitors = 0   // one value for the whole process
///   @Shared(.appStorage("volume")) var volume = 0.5   // persisted on disk
/// }
///
/// state.$count.withLock { $0 += 1 }
/// ```
///
/// ``withLock(_:)`` is the only way to change the value. Every root ``Store`` whose state
/// holds a shared value publishes a new version (without an action) when it changes, so a
/// server streams the change to every session showing it. Equality, `Codable` and
/// ``customDump(_:)`` see the current value: a state encodes `@Shared var count` as
/// `"count": 3`. Decoding makes a new, unkeyed shared value holding the decoded value.
///
/// A store notices a shared value entering its state when the value is made during the
/// action (`Shared(0)`, a key, `$parent.child`) or the state already held shared values;
/// a store whose state held none does not notice one made before the action and put in
/// its state by it (for example from the action's payload).
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
  let reference: any SharedReference<Value>

  init(reference: any SharedReference<Value>) {
    self.reference = reference
    SharedHandles.didMake()
  }

  /// A new shared value owned by no key: pass it on to share it, as in
  /// `Child.State(count: state.$count)`.
  public init(_ value: Value) {
    self.init(reference: SharedBox(value: value))
  }

  /// A new shared value owned by no key, as TCA spells it: `Shared(value: 0)`.
  public init(value: Value) {
    self.init(value)
  }

  /// The value stored under `key`, or `wrappedValue` when nothing is stored yet:
  /// `@Shared(.appStorage("count")) var count = 0`.
  ///
  /// The key is resolved with the current dependencies (its storage and, for session-scoped
  /// keys, the session id), so create it inside the store's initial state or reducer.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(key: key, default: wrappedValue)
  }

  private init(key: some SharedKey<Value>, default wrappedValue: () -> Value) {
    let storing: SharedBox<Value>.Storing =
      if let atomic = key as? any AtomicSharedKey<Value> {
        .update { current, change in try atomic.update(from: current, change) }
      } else {
        .save { key.save($0) }
      }
    self.init(reference: SharedRegistry.box(for: key, default: wrappedValue, storing: storing))
  }

  /// The value stored under a key that has its own default: `@Shared(.users) var users`.
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) {
    self.init(key: key, default: { key.defaultValue })
  }

  /// The value stored under a key that has its own default, or `wrappedValue` instead of that
  /// default when nothing is stored yet, as tests seed it: `@Shared(.syncUps) var syncUps = [.mock]`
  /// (the literal is read as the key's value type).
  public init<Key: SharedKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: SharedKeyDefault<Key>) {
    self.init(key: key, default: wrappedValue)
  }

  /// A shared value from another one: `Shared(state.$count)`.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The shared value an optional one holds, or `nil` when it holds none now:
  /// `Shared($syncUps[id: id])` shares one element of a shared collection.
  ///
  /// After the optional becomes `nil` (the element was removed), this one keeps its last value.
  public init?(_ base: Shared<Value?>) {
    guard let reference = UnwrappedReference(parent: base.reference) else { return nil }
    self.init(reference: reference)
  }

  /// The current value. Change it with ``withLock(_:)``.
  public var wrappedValue: Value {
    if let assertion = SharedAssertion.active { return assertion.expectedValue(of: reference) }
    return reference.value
  }

  /// The shared value itself, to pass on (`$count`) or to change (`$count.withLock { … }`).
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value under its lock, as one unit of work: reads, changes and writes back
  /// with no other change in between. Every holder sees the change when `body` returns.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  ///
  /// Inside a `TestStore` assertion, the change applies to the expected state only.
  @discardableResult
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    if let assertion = SharedAssertion.active {
      return try assertion.mutateExpected(reference, body)
    }
    return try reference.withLock(body)
  }

  /// A shared part of this value: `state.$signUp.phoneNumber` is a `Shared<String>` that
  /// reads and writes the phone number inside the shared sign-up data.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: WritableKeyPath<Value, Member> & Sendable
  ) -> Shared<Member> {
    Shared<Member>(reference: DerivedReference(parent: reference, keyPath: keyPath))
  }

  /// A read-only view of this shared value.
  public var reader: SharedReader<Value> { SharedReader(self) }
}
