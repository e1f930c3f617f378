extension Store {
  /// The store's states as an async sequence: the current state first, then each change.
  ///
  /// A slow reader sees the latest state rather than every intermediate one; pass another
  /// policy to ``states(bufferingPolicy:)`` to see every change.
  public var states: AsyncStream<State> { states(bufferingPolicy: .bufferingNewest(1)) }

  /// The store's states as an async sequence, buffered by `bufferingPolicy`.
  public func states(
    bufferingPolicy: AsyncStream<State>.Continuation.BufferingPolicy
  ) -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: bufferingPolicy)
    let observation = observe { continuation.yield($0.state) }
    continuation.onTermination = { _ in observation.cancel() }
    return stream
  }
}
