/// The value a ``CaseKeyPath`` points into: a case of some root enum, seen as a payload of
/// type `Value`. Member lookup on `Case<Action>` yields the cases of `Action`, so `\.counter`
/// and `\.counter.incrementButtonTapped` are ordinary key paths.
@dynamicMemberLookup
public struct Case<Value>: Sendable {
  fileprivate let _embed: @Sendable (Value) -> Any
  fileprivate let _extract: @Sendable (Any) -> Value?
  /// The same case as a typed path from the root, when it is one of the root's own cases
  /// (`\.counter`): an ``AnyCasePath`` resolved from it then calls the case's own functions,
  /// without wrapping the root in `Any` and casting it back.
  let rootCase: (any Sendable)?
  /// Whether this is the root itself, not one of its cases.
  private let isRoot: Bool

  /// The identity case: the root itself.
  public init() {
    self._embed = { $0 }
    self._extract = { $0 as? Value }
    self.rootCase = nil
    self.isRoot = true
  }

  fileprivate init(
    embed: @escaping @Sendable (Value) -> Any,
    extract: @escaping @Sendable (Any) -> Value?,
    rootCase: (any Sendable)? = nil
  ) {
    self._embed = embed
    self._extract = extract
    self.rootCase = rootCase
    self.isRoot = false
  }

  /// Wraps `value` into the root enum, erased.
  public func embed(_ value: Value) -> Any { _embed(value) }

  /// The payload of this case inside `root`, or `nil`.
  public func extract(from root: Any) -> Value? { _extract(root) }
}

extension Case where Value: CasePathable {
  /// The case of `Value` named by `keyPath`, relative to the same root.
  public subscript<Member>(
    dynamicMember keyPath: KeyPath<Value.AllCasePaths, AnyCasePath<Value, Member>>
  ) -> Case<Member> {
    appending(Value.allCasePaths[keyPath: keyPath])
  }
}

extension Case {
  func appending<Member>(_ path: AnyCasePath<Value, Member>) -> Case<Member> {
    let (embedValue, extractValue) = (_embed, _extract)
    return Case<Member>(
      embed: { embedValue(path.embed($0)) },
      extract: { extractValue($0).flatMap(path.extract(from:)) },
      rootCase: isRoot ? path : nil
    )
  }
}

extension Case {
  /// A binding of the field `keyPath` names, as a case of `BindingAction`:
  /// `store.send(\.binding.sliderValue, 2)` sends `.binding(.set(\.sliderValue, 2))`.
  public subscript<Root, Member: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, Member> & Sendable
  ) -> Case<Member> where Value == BindingAction<Root> {
    let (embedValue, extractValue) = (_embed, _extract)
    return Case<Member>(
      embed: { embedValue(.set(keyPath, $0)) },
      extract: { root in
        guard let binding = extractValue(root), binding.keyPath == keyPath as PartialKeyPath<Root> else { return nil }
        return binding.value as? Member
      }
    )
  }
}
