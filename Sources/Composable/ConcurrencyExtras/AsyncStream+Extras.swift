extension AsyncStream where Element: Sendable {
  /// A stream that ends at once: the default of an endpoint that returns a stream.
  public static var finished: Self { Self { $0.finish() } }

  /// A stream that never produces an element and never ends.
  public static var never: Self { Self { _ in } }

  /// A stream of the elements of `sequence` (ending where it fails).
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    self.init { continuation in
      let task = forward(sequence, yield: { continuation.yield($0) }, finish: { _ in continuation.finish() })
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

extension AsyncThrowingStream where Element: Sendable, Failure == any Error {
  /// A stream that ends at once, or with `error`.
  public static func finished(throwing error: (any Error)? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }

  /// A stream that never produces an element and never ends.
  public static var never: Self { Self { _ in } }

  /// A stream of the elements of `sequence`, ending with its error.
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    self.init { continuation in
      let task = forward(
        sequence, yield: { continuation.yield($0) }, finish: { continuation.finish(throwing: $0) })
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

/// Iterates `sequence` in a task of its own, handing each element to `yield` and its end
/// (with the error it failed with, if any) to `finish`.
private func forward<S: AsyncSequence & Sendable>(
  _ sequence: S, yield: @escaping @Sendable (S.Element) -> Void, finish: @escaping @Sendable ((any Error)?) -> Void
) -> Task<Void, Never> where S.Element: Sendable {
  Task {
    do {
      for try await element in sequence { yield(element) }
      finish(nil)
    } catch {
      finish(error)
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// This sequence as an `AsyncStream`.
  public func eraseToStream() -> AsyncStream<Element> { AsyncStream(self) }

  /// This sequence as an `AsyncThrowingStream`.
  public func eraseToThrowingStream() -> AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream(self)
  }
}

extension Task where Success == Never, Failure == Never {
  /// Yields many times, so that other tasks waiting to run get to.
  public static func megaYield(count: Int = 20) async {
    for _ in 0..<count { await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value }
  }
}
