/// A value with an id of its own: a selected row's feature,
/// `var selection: Identified<Row.ID, Counter.State?>?`. Its members read through to the value.
@dynamicMemberLookup
public struct Identified<ID: Hashable, Value>: Identifiable {
  public let id: ID
  public var value: Value

  public init(_ value: Value, id: ID) {
    self.id = id
    self.value = value
  }

  /// Identifies `value` by its member `id`: `Identified(todo, id: \.id)`.
  public init(_ value: Value, id: (Value) -> ID) {
    self.init(value, id: id(value))
  }

  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
    get { value[keyPath: keyPath] }
    set { value[keyPath: keyPath] = newValue }
  }

  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    value[keyPath: keyPath]
  }
}

extension Identified: Equatable where Value: Equatable {}
extension Identified: Hashable where Value: Hashable {}
extension Identified: Sendable where ID: Sendable, Value: Sendable {}
extension Identified: Encodable where ID: Encodable, Value: Encodable {}
extension Identified: Decodable where ID: Decodable, Value: Decodable {}
