/// A value declared `Sendable` by the one who wraps it, who vouches that it is used safely:
/// `UncheckedSendable(request)` to hand a non-`Sendable` value to an endpoint.
@dynamicMemberLookup
public struct UncheckedSendable<Value>: @unchecked Sendable {
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    value[keyPath: keyPath]
  }
}

extension UncheckedSendable: Equatable where Value: Equatable {}
extension UncheckedSendable: Hashable where Value: Hashable {}
