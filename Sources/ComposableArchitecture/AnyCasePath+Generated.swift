extension AnyCasePath {
  /// The case path `@CasePathable` writes for each case.
  ///
  /// Its closures only build and match one case, capturing nothing; they are taken as
  /// non-`@Sendable` because Swift 6 flags the capture of a generic enum's metatype (for
  /// `enum Wrapper<Value: Equatable>`) in `@Sendable` closures, although they never use
  /// `Value`'s conformances. Write `AnyCasePath(embed:extract:)` by hand instead.
  public init(
    generatedEmbed embed: @escaping (Value) -> Root, extract: @escaping (Root) -> Value?
  ) {
    nonisolated(unsafe) let embed = embed
    nonisolated(unsafe) let extract = extract
    self.init(embed: { embed($0) }, extract: { extract($0) })
  }
}
