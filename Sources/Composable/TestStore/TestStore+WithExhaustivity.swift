extension TestStore {
  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then sets it back:
  /// `await store.withExhaustivity(.off) { await store.send(.refresh) }`.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await operation()
  }

  /// ``withExhaustivity(_:operation:)`` for synchronous work.
  @_disfavoredOverload
  public func withExhaustivity<R>(_ exhaustivity: Exhaustivity, operation: () throws -> R) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try operation()
  }
}
