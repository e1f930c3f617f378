/// A read-only view of a shared value: it follows every change, but cannot make one.
///
/// ```swift
/// @SharedReader(.appStorage("isOn")) var isOn = false
/// isOn = true  // error: 'isOn' is a get-only property
/// ```
///
/// Stores publish its changes like those of ``Shared``.
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value: Sendable>: Sendable {
  let reference: any SharedReference<Value>

  /// A read-only view of `shared`.
  public init(_ shared: Shared<Value>) {
    self.init(reference: shared.reference)
  }

  /// A constant value.
  public init(value: Value) {
    self.init(reference: SharedBox(value: value))
  }

  /// The value stored under `key`, or `wrappedValue` when nothing is stored yet.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) {
    self.init(reference: SharedRegistry.box(for: key, default: wrappedValue, storing: .none))
  }

  /// The value stored under a key that has its own default.
  public init<Key: SharedReaderKey<Value>>(_ key: SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.defaultValue, key)
  }

  /// A read-only view of the value a shared optional holds, or `nil` when it holds none now:
  /// `SharedReader($syncUps[id: id])`. After the optional becomes `nil`, this one keeps its
  /// last value.
  public init?(_ base: Shared<Value?>) {
    self.init(SharedReader<Value?>(base))
  }

  /// The value an optional reader holds, or `nil` when it holds none now; after the
  /// optional becomes `nil`, this one keeps its last value.
  public init?(_ base: SharedReader<Value?>) {
    guard let reference = UnwrappedReference(parent: base.reference) else { return nil }
    self.init(reference: reference)
  }

  /// A reader from another one.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// The current value.
  public var wrappedValue: Value {
    if let assertion = SharedAssertion.active { return assertion.expectedValue(of: reference) }
    return reference.value
  }

  /// The reader itself, to pass on.
  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  /// A read-only part of this value.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: WritableKeyPath<Value, Member> & Sendable
  ) -> SharedReader<Member> {
    SharedReader<Member>(reference: DerivedReference(parent: reference, keyPath: keyPath))
  }

  private init(reference: any SharedReference<Value>) {
    self.reference = reference
    SharedHandles.didMake()
  }
}
