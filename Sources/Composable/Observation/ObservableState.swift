import Observation
import Synchronization

/// A state value whose reads and changes can be observed, property by property: what
/// `@ObservableState` makes of a struct or an enum.
///
/// Reading `state.count` inside `withPerceptionTracking` registers the read, and the next
/// change of `count` in that value (or in a copy of it) calls the `onChange`. Assigning an
/// equal value does not; nor does a change of another property, or of a child state's
/// property (unless the child was read too). Write the conformance with the macro, not by
/// hand.
public protocol ObservableState: Observable {
  /// The identity of this value: kept by copies and by changes of its properties; a new one
  /// after ``_$willModify()``. An enum's is its case's, with its payload's identity.
  var _$id: ObservableStateID { get }
  /// Gives the value a new identity, so that an observer of the property holding it sees
  /// it replaced: what a parent does before it changes the child in place.
  mutating func _$willModify()
}

/// The identity of an observable state value.
///
/// Two bare words, no allocation: a location drawn from a process-wide counter (a new one
/// at creation and at each `_$willModify()`), and the cases an enum state wrapped it in.
/// It is not part of the state: never encoded, compared by `==` or dumped.
public struct ObservableStateID: Hashable, Sendable {
  @usableFromInline var location: UInt64
  /// The case indices of the enums wrapping the value, one byte each, innermost last.
  @usableFromInline var cases: UInt64

  private static let counter = Atomic<UInt64>(0)

  @usableFromInline static func nextLocation() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// A new identity, equal to no other.
  public init() {
    self.init(location: Self.nextLocation())
  }

  init(location: UInt64) {
    self.location = location
    cases = 0
  }

  /// The identity of `value` if it is observable, else a new one: a value without identity
  /// counts as replaced whenever it is assigned.
  public static func _$id<T>(for value: T) -> Self {
    (value as? any ObservableState)?._$id ?? Self()
  }

  public static func _$id(for value: some ObservableState) -> Self {
    value._$id
  }

  /// This identity inside the case numbered `tag` of an enum state.
  public func _$tag(_ tag: Int) -> Self {
    var tagged = self
    tagged.cases = (cases << 8 | cases >> 56) ^ UInt64(truncatingIfNeeded: tag &+ 1)
    return tagged
  }

  /// Takes a new location.
  public mutating func _$willModify() {
    location = Self.nextLocation()
  }
}

/// Gives `value` a new identity if it is observable; does nothing otherwise.
@inlinable public func _$willModify<T>(_: inout T) {}

@inlinable public func _$willModify<T: ObservableState>(_ value: inout T) {
  value._$willModify()
}

// MARK: - Identity comparisons, chosen by the static type of the property

/// Whether two values of a property are the same observable value(s), so that assigning one
/// over the other changes nothing an observer of the property sees (the values' own
/// properties notify their own observers). Values without identity never are.
@inlinable public func _$isIdentityEqual<T>(_: T, _: T) -> Bool { false }

@inlinable public func _$isIdentityEqual<T: ObservableState>(_ lhs: T, _ rhs: T) -> Bool {
  lhs._$id == rhs._$id
}

@inlinable public func _$isIdentityEqual<T: ObservableState>(_ lhs: T?, _ rhs: T?) -> Bool {
  lhs?._$id == rhs?._$id
}

@inlinable public func _$isIdentityEqual<C: Collection>(_ lhs: C, _ rhs: C) -> Bool
where C.Element: ObservableState {
  guard lhs.count == rhs.count else { return false }
  return zip(lhs, rhs).allSatisfy { $0._$id == $1._$id }
}

/// Elements are the same when their ids are, in order: a child changed in place is not a
/// change of the array.
public func _$isIdentityEqual<ID: Hashable, T: ObservableState>(
  _ lhs: IdentifiedArray<ID, T>, _ rhs: IdentifiedArray<ID, T>
) -> Bool {
  lhs.hasSameIDs(as: rhs)
}

public func _$isIdentityEqual<T: ObservableState>(_ lhs: StackState<T>, _ rhs: StackState<T>) -> Bool {
  lhs.hasSameIDs(as: rhs)
}

public func _$isIdentityEqual<T: ObservableState>(
  _ lhs: PresentationState<T>, _ rhs: PresentationState<T>
) -> Bool {
  lhs.wrappedValue?._$id == rhs.wrappedValue?._$id
}

// MARK: - Whether a new value is a change, chosen by the static type of the property

/// Whether assigning `new` over `old` is a change observers hear of: for `Equatable`
/// values, when they differ; for objects, when they are different objects; else always.
@inlinable public func _$shouldNotifyObservers<T>(_: T, _: T) -> Bool { true }

@inlinable public func _$shouldNotifyObservers<T: Equatable>(_ old: T, _ new: T) -> Bool { old != new }

@inlinable public func _$shouldNotifyObservers<T: AnyObject>(_ old: T, _ new: T) -> Bool { old !== new }

@inlinable public func _$shouldNotifyObservers<T: Equatable & AnyObject>(_ old: T, _ new: T) -> Bool {
  old != new
}
