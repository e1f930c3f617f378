import Synchronization

/// A pair of functions that embed a value in an enum case and extract it back out.
///
/// ``CaseKeyPath`` is how users name a case; reducers and stores turn it into an
/// `AnyCasePath` once, at construction, and call these closures on the hot path.
public struct AnyCasePath<Root, Value>: Sendable {
  let _embed: @Sendable (Value) -> Root
  let _extract: @Sendable (Root) -> Value?

  /// Creates a case path from an embed function (usually the case itself) and an extractor.
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Resolves a case key path such as `\.counter` into its embed and extract functions.
  ///
  /// Resolving walks the key path through `Case` values, which is slow, so each key path is
  /// resolved once per process and cached: reducers build their `Scope`s on every action.
  public init(_ keyPath: CaseKeyPath<Root, Value>) {
    if let cached = ResolvedCasePaths.shared[keyPath] as? Self {
      self = cached
      return
    }
    let resolved = Case<Root>()[keyPath: keyPath]
    if let rootCase = resolved.rootCase as? Self {
      self = rootCase
    } else {
      self._embed = { resolved.embed($0) as! Root }
      self._extract = { resolved.extract(from: $0) }
    }
    ResolvedCasePaths.shared[keyPath] = self
  }

  /// The type of the case's payload.
  public var _valueType: Any.Type { Value.self }

  /// Wraps `value` in the case.
  public func embed(_ value: Value) -> Root { _embed(value) }

  /// The case's payload, or `nil` when `root` is another case.
  public func extract(from root: Root) -> Value? { _extract(root) }

  /// A path through this case and then `next`.
  public func appending<Next>(_ next: AnyCasePath<Value, Next>) -> AnyCasePath<Root, Next> {
    AnyCasePath<Root, Next>(
      embed: { self.embed(next.embed($0)) },
      extract: { self.extract(from: $0).flatMap(next.extract(from:)) }
    )
  }
}

/// Case key paths already resolved, by key path: values are `AnyCasePath`s.
private final class ResolvedCasePaths: @unchecked Sendable {
  static let shared = ResolvedCasePaths()
  private let lock = Mutex(())
  /// Guarded by `lock`.
  private var paths: [AnyKeyPath: any Sendable] = [:]

  subscript(keyPath: AnyKeyPath) -> (any Sendable)? {
    get { lock.withLock { _ in paths[keyPath] } }
    set { lock.withLock { _ in paths[keyPath] = newValue } }
  }
}
