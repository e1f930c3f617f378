/// An enum whose cases can be named with key paths, as in `\Action.Cases.counter`, written
/// `\.counter` wherever a ``CaseKeyPath`` is expected.
///
/// `@CasePathable` (in `ComposableArchitecture`) writes the conformance. Without the macro,
/// write it by hand:
///
/// ```swift
/// extension Action: CasePathable {
///   struct AllCasePaths {
///     var counter: AnyCasePath<Action, Counter.Action> {
///       AnyCasePath(embed: Action.counter) { if case let .counter(v) = $0 { v } else { nil } }
///     }
///   }
///   static var allCasePaths: AllCasePaths { AllCasePaths() }
/// }
/// ```
public protocol CasePathable {
  /// A type with one property per case, each an ``AnyCasePath`` from `Self` to its payload.
  associatedtype AllCasePaths
  /// The case paths of every case.
  static var allCasePaths: AllCasePaths { get }
  /// The payload type of each case (`Void` for none, a tuple for several values), so that
  /// code searching values by their type can tell what the enum may hold; `nil`, the
  /// default, when not known. `@CasePathable` writes it.
  static var _$casePayloadTypes: [Any.Type]? { get }
}

/// A key path to an enum case: `\.counter`, `\.todos.element`. ``AnyCasePath/init(_:)``
/// turns it into functions that embed and extract the case's payload.
public typealias CaseKeyPath<Root, Value> = KeyPath<Case<Root>, Case<Value>>

extension CasePathable {
  public static var _$casePayloadTypes: [Any.Type]? { nil }

  /// The root of this enum's case key paths, for spelling them in full: `\Action.Cases.counter`.
  public typealias Cases = Case<Self>

  /// The payload of the case `keyPath` names, or `nil` when `self` is another case.
  public subscript<Value>(case keyPath: CaseKeyPath<Self, Value>) -> Value? {
    AnyCasePath(keyPath).extract(from: self)
  }

  /// The payload of a case, read as a member of an enum marked `@dynamicMemberLookup`:
  /// `state.destination?.edit` is the `edit` case's state, or `nil`. Setting it changes the
  /// payload when the value is in that case, as in `$0.destination?.edit?.title = "Blob"`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<AllCasePaths, AnyCasePath<Self, Value>>) -> Value? {
    get { Self.allCasePaths[keyPath: keyPath].extract(from: self) }
    set {
      let path = Self.allCasePaths[keyPath: keyPath]
      guard let newValue, path.extract(from: self) != nil else { return }
      self = path.embed(newValue)
    }
  }

  /// Whether `self` is the case `keyPath` names.
  public func `is`<Value>(_ keyPath: CaseKeyPath<Self, Value>) -> Bool {
    self[case: keyPath] != nil
  }

  /// Changes the payload of the case `keyPath` names in place; reports an issue when the
  /// value is in another case: `$0.destination?.modify(\.addContact) { $0.contact.name = "Blob" }`.
  public mutating func modify<Value>(
    _ keyPath: CaseKeyPath<Self, Value>, _ change: (inout Value) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let path = AnyCasePath(keyPath)
    guard var value = path.extract(from: self) else {
      reportIssue("Can't modify the case \(keyPath) of \(self): it is in another case.", fileID: fileID, line: line)
      return
    }
    change(&value)
    self = path.embed(value)
  }
}

extension _AppendKeyPath {
  /// Embeds `value` in the case this key path names:
  /// `let path: CaseKeyPath<Action, Counter.Action> = \.counter; path(.incrementButtonTapped)`.
  public func callAsFunction<Root, Value>(_ value: Value) -> Root
  where Self == CaseKeyPath<Root, Value> {
    AnyCasePath(self).embed(value)
  }

  /// Builds the case this key path names when it carries no payload.
  public func callAsFunction<Root>() -> Root where Self == CaseKeyPath<Root, Void> {
    AnyCasePath(self).embed(())
  }
}
