extension Shared {
  /// The values this shared value takes from now on, one per change, wherever the change
  /// is made (this feature, another store, another session, the storage).
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { [count = state.$count] send in
  ///     for await count in count.publisher { await send(.countChanged(count)) }
  ///   }
  /// ```
  ///
  /// A slow consumer gets the latest value, not every one in between. The sequence ends
  /// when the task iterating it is cancelled. Reacting to a change by changing the same
  /// value again makes a loop; reacting by changing other state does not.
  public var publisher: AsyncStream<Value> { changes(of: reference) }
}

extension SharedReader {
  /// The values this shared value takes from now on, one per change; see ``Shared/publisher``.
  public var publisher: AsyncStream<Value> { changes(of: reference) }
}

private func changes<Value>(of reference: any SharedReference<Value>) -> AsyncStream<Value> {
  AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
    let subscription = reference.box.subscribe { _ in continuation.yield(reference.value) }
    continuation.onTermination = { _ in subscription.cancel() }
  }
}
