import Observation
import Synchronization

/// The observation of one observable state value, stored in it by `@ObservableState` as
/// `_$observationRegistrar`: its identity, and the registrar its observers subscribe to.
///
/// Copies of a state share the registrar, so a change made through one copy reaches the
/// observers of another (a child read out of its parent, then changed in the parent).
///
/// What it costs, per state value: 16 bytes inline (the identity and one reference), and
/// one 24-byte object (32 bytes of heap) made with the value. The registrar itself (about
/// 160 bytes of heap in three objects) is made only when the value is first read inside
/// `withPerceptionTracking`; until then a change is a plain store after one atomic load,
/// and a read costs one atomic load. Nothing is allocated per change.
///
/// It is not part of the state: every registrar equals every other, hashes to nothing,
/// encodes as nothing and decodes as a new one; the macro leaves it out of the JSON and
/// the schema, and dumps leave out members named `_$...`.
public struct ObservationStateRegistrar: Sendable {
  /// The location of the state's identity (a struct's has no cases).
  private var location = ObservableStateID.nextLocation()
  @usableFromInline let storage = Storage()

  public init() {}

  /// The identity of the state holding this registrar.
  public var id: ObservableStateID { ObservableStateID(location: location) }

  /// Gives the state a new identity: see ``ObservableState/_$willModify()``.
  public mutating func _$willModify() { location = ObservableStateID.nextLocation() }

  /// Whether a read can be observed now: some `withPerceptionTracking` is running.
  @inlinable public var isTracking: Bool { PerceptionTracking.isActive }

  /// Whether the state was ever read under observation: until then no one can be notified
  /// of its changes, which are then plain stores.
  @inlinable public var isObserved: Bool { storage.registrar.load() != nil }

  /// Where copies of one state meet: the registrar, made at the first observed read.
  @usableFromInline final class Storage: Sendable {
    @usableFromInline let registrar = AtomicLazyReference<Registrar>()

    @usableFromInline init() {}

    /// The registrar, made if it was not yet.
    @usableFromInline var made: Registrar {
      registrar.load() ?? registrar.storeIfNil(Registrar())
    }
  }

  @usableFromInline final class Registrar: Sendable {
    @usableFromInline let registrar = ObservationRegistrar()
    @usableFromInline init() {}
  }
}

extension ObservationStateRegistrar: Equatable, Hashable, Codable {
  /// Always `true`: registrars are not part of the state, so two states with equal fields
  /// are equal.
  public static func == (_: Self, _: Self) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
  public init(from decoder: any Decoder) throws { self.init() }
  public func encode(to encoder: any Encoder) throws {}
}

extension ObservationStateRegistrar {
  /// Registers a read of `keyPath` of `subject` with the tracking in progress, if any.
  @inlinable public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    guard PerceptionTracking.isActive else { return }
    storage.made.registrar.access(subject, keyPath: keyPath)
  }

  /// Sets `value` to `newValue`, notifying the observers of `keyPath` unless the two have
  /// the same identity or `shouldNotifyObservers` says the change is none.
  @inlinable public func mutate<Subject: Observable, Member, Value>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ value: inout Value,
    _ newValue: Value,
    _ isIdentityEqual: (Value, Value) -> Bool,
    _ shouldNotifyObservers: (Value, Value) -> Bool = { _, _ in true }
  ) {
    guard let observed = storage.registrar.load(), !isIdentityEqual(value, newValue),
      shouldNotifyObservers(value, newValue)
    else {
      value = newValue
      return
    }
    observed.registrar.withMutation(of: subject, keyPath: keyPath) { value = newValue }
  }

  /// Before a change in place: the member as it was (an observable member takes a new
  /// identity first, so that a replacement during the change is seen as one).
  @inlinable public func willModify<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ member: inout Member
  ) -> Member {
    member
  }

  @inlinable public func willModify<Subject: Observable, Member: ObservableState>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ member: inout Member
  ) -> Member {
    member._$willModify()
    return member
  }

  /// After a change in place: notifies the observers of `keyPath` if the member is no
  /// longer the value it was (see ``mutate(_:keyPath:_:_:_:_:)``).
  @inlinable public func didModify<Subject: Observable, Member>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ member: inout Member,
    _ oldValue: Member,
    _ isIdentityEqual: (Member, Member) -> Bool,
    _ shouldNotifyObservers: (Member, Member) -> Bool = { _, _ in true }
  ) {
    guard !isIdentityEqual(oldValue, member) else { return }
    let newValue = member
    member = oldValue
    mutate(subject, keyPath: keyPath, &member, newValue, isIdentityEqual, shouldNotifyObservers)
  }
}

/// Whether some `withPerceptionTracking` is running, on any thread: state values make their
/// registrars only for reads that can be observed.
@usableFromInline enum PerceptionTracking {
  @usableFromInline static let scopes = Atomic<Int>(0)

  @inlinable static var isActive: Bool { scopes.load(ordering: .relaxed) > 0 }

  /// Runs `body` as a tracking scope.
  static func scope<T>(_ body: () -> T) -> T {
    scopes.add(1, ordering: .relaxed)
    defer { scopes.subtract(1, ordering: .relaxed) }
    return body()
  }
}
