extension Task where Success == Never, Failure == Never {
  /// Suspends until the task is cancelled, then throws `CancellationError`: an effect
  /// that runs until it is torn down, `try await Task.never()`.
  public static func never() async throws -> Never {
    let stream = AsyncStream<Never> { _ in }
    for await _ in stream {}
    throw _Concurrency.CancellationError()
  }
}

extension Result where Failure == any Error {
  /// The result of an async throwing `body`: `await Result { try await client.fetch() }`.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
