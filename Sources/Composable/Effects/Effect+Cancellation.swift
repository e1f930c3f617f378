extension Effect {
  /// Marks this effect's work as cancellable with `id`.
  ///
  /// Ids belong to one root store: two stores using the same id never cancel each other.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; a private `enum CancelID { case timer }` is typical.
  ///   - cancelInFlight: Cancel work already running under `id` before this one starts.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    switch operation {
    case .none: .none
    default: Self(.cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// Cancels the work running under `id` in this store.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(id: EffectID(id)))
  }
}
