import Dispatch

extension Duration {
  /// This duration for Dispatch, to the nanosecond.
  var dispatchInterval: DispatchTimeInterval {
    .nanoseconds(Int(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000))
  }
}
