import Observation

/// Runs `apply` and calls `onChange` once, at the next change of an observable value it
/// read (a store's state, a property of an `@ObservableState` value): swift-perception's
/// name for `withObservationTracking`, which Linux has.
///
/// State values are observed only under this function: they make their registrars for
/// reads made while it runs (see ``ObservationStateRegistrar``). A store is observed under
/// `withObservationTracking` too.
@discardableResult
public func withPerceptionTracking<T>(
  _ apply: () -> T,
  onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  PerceptionTracking.scope { withObservationTracking(apply, onChange: onChange()) }
}

/// Runs `apply`: what a view's body does in SwiftUI, where perception tracks its reads.
/// A server draws no views, so nothing is tracked.
@discardableResult
public func withPerceptionTracking<T>(_ apply: () -> T) -> T {
  apply()
}
