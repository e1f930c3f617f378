import Observation
import Synchronization

/// The state of a feature presented by its parent (a sheet, an alert, a drill-down), `nil`
/// while nothing is presented: `@Presents var destination: Destination.State?`.
///
/// Its projection (`$destination`) is what `Reducer/ifLet(_:action:destination:fileID:line:)`
/// runs the presented feature on. Each presentation has an identity of its own, so the
/// effects of one presentation are cancelled when it is dismissed or replaced. It encodes as
/// the presented state, or `null`.
@propertyWrapper
public struct PresentationState<State> {
  /// The value and its identity live in a box, copied on write, so a feature can present
  /// itself: `@Presents var child: Self.State?` in its own `State`.
  private final class Storage: @unchecked Sendable {
    var value: State?
    /// Which presentation the value belongs to: it changes when one is presented.
    var presentationID: Int
    /// The observers of the presented value, made at its first read under
    /// `withPerceptionTracking` and kept by the copies of this box.
    let registrar = AtomicLazyReference<ObservationStateRegistrar.Registrar>()

    init(value: State?, presentationID: Int, registrar: ObservationStateRegistrar.Registrar? = nil) {
      self.value = value
      self.presentationID = presentationID
      if let registrar { _ = self.registrar.storeIfNil(registrar) }
    }
  }

  private var storage: Storage

  public init(wrappedValue: State?) {
    storage = Storage(value: wrappedValue, presentationID: wrappedValue == nil ? 0 : PresentationIdentities.next())
  }

  private var value: State? { storage.value }

  /// Which presentation the value belongs to: it changes when one is presented.
  var presentationID: Int { storage.presentationID }

  /// The presentation that ended (its state set to `nil`) and whose effects ``Reducer/ifLet(_:action:destination:fileID:line:)``
  /// has not cancelled yet.
  var endedPresentationID: Int? {
    storage.value == nil && storage.presentationID != 0 ? storage.presentationID : nil
  }

  /// Marks the ended presentation's effects cancelled.
  mutating func forgetEndedPresentation() {
    uniqueStorage.presentationID = 0
  }

  /// The box, copied first if another `PresentationState` shares it.
  private var uniqueStorage: Storage {
    mutating get {
      if !isKnownUniquelyReferenced(&storage) {
        storage = Storage(
          value: storage.value, presentationID: storage.presentationID, registrar: storage.registrar.load())
      }
      return storage
    }
  }

  /// The presented state, or `nil`.
  ///
  /// Presenting starts a new presentation, and so does assigning an alert or a dialog
  /// while another is shown, or an `Identifiable` state with another `id`: answering or
  /// dismissing the first then leaves the new one in place, and the first one's effects are
  /// cancelled. Changes made in place (`state.destination?.edit?.title = ...`) keep the
  /// presentation.
  ///
  /// It is observable, as TCA's `@Presents` property of an `@ObservableState` is: a read
  /// inside `withPerceptionTracking` is notified when another state is presented (one of
  /// another identity, or another case of an enum state) or the presentation ends, not when
  /// the presented state changes in place (its own properties notify their readers).
  public var wrappedValue: State? {
    get {
      if PerceptionTracking.isActive {
        (storage.registrar.load() ?? storage.registrar.storeIfNil(.init())).registrar
          .access(self, keyPath: \.wrappedValue)
      }
      return value
    }
    set {
      let storage = uniqueStorage
      if let newValue,
        storage.value.map({ isEphemeral(newValue) || !haveSameIdentity($0, newValue) }) ?? true
      {
        storage.presentationID = PresentationIdentities.next()
      }
      guard let observed = storage.registrar.load(), !Self.isSamePresentation(storage.value, newValue) else {
        storage.value = newValue
        return
      }
      observed.registrar.withMutation(of: self, keyPath: \.wrappedValue) { storage.value = newValue }
    }
    _modify {
      let storage = uniqueStorage
      let wasPresented = storage.value != nil
      if let observed = storage.registrar.load() {
        let oldValue = storage.value
        yield &storage.value
        if !Self.isSamePresentation(oldValue, storage.value) {
          let newValue = storage.value
          storage.value = oldValue
          observed.registrar.withMutation(of: self, keyPath: \.wrappedValue) { storage.value = newValue }
        }
      } else {
        yield &storage.value
      }
      if !wasPresented, storage.value != nil { storage.presentationID = PresentationIdentities.next() }
    }
  }

  /// Whether `new` is the state `old` was: both `nil`, or observable states of one identity.
  private static func isSamePresentation(_ old: State?, _ new: State?) -> Bool {
    switch (old, new) {
    case (nil, nil): true
    case let (old?, new?):
      if let old = old as? any ObservableState, let new = new as? any ObservableState {
        old._$id == new._$id
      } else {
        false
      }
    default: false
    }
  }

  /// Itself, for `\.$destination` key paths.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

/// TCA's spelling of the property wrapper: `@Presents var destination: Destination.State?`.
public typealias Presents<State> = PresentationState<State>

/// Whether two presented values are the same presented thing: of equal `id`s when they are
/// `Identifiable`, and always otherwise.
private func haveSameIdentity(_ lhs: Any, _ rhs: Any) -> Bool {
  guard let lhs = lhs as? any Identifiable else { return true }
  return hasID(lhs, equalToIDOf: rhs)
}

private func hasID<Value: Identifiable>(_ value: Value, equalToIDOf other: Any) -> Bool {
  guard let other = other as? Value else { return true }
  return value.id == other.id
}

enum PresentationIdentities {
  private static let counter = Atomic<Int>(0)

  static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when both present equal states (or nothing); identity is not compared. Copies
  /// that share their box are equal without comparing the states.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage === rhs.storage || lhs.value == rhs.value }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Observable {}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(State?.self))
  }
}

/// A ``PresentationState`` of any state, for dumps to show it by its property's name.
protocol PresentationStateProtocol {}

extension PresentationState: PresentationStateProtocol, CustomReflectable, CustomDumpReflectable {
  /// The presented state (or `nil`), without its identity: what dumps show, and where a
  /// store looks for the shared values of the presented feature.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: value.map { [$0] } ?? [], displayStyle: .optional)
  }

  /// The same as ``customMirror``.
  public var customDumpMirror: Mirror { customMirror }
}

extension PresentationState: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [State.self] }
}

extension PresentationState: CustomStringConvertible {
  public var description: String { value.map { "\($0)" } ?? "nil" }
}
