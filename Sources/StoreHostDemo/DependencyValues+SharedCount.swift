import ComposableArchitecture

extension DependencyValues {
  /// Where ``SharedCounter``'s count lives. `nil` (the default) keeps it in the app storage of
  /// this process; `storehost --database` sets a key shared by every process of the cluster.
  public var sharedCountKey: (any SharedKey<Int>)? {
    get { self[SharedCountKeyDependency.self] }
    set { self[SharedCountKeyDependency.self] = newValue }
  }
}

private enum SharedCountKeyDependency: DependencyKey {
  static let liveValue: (any SharedKey<Int>)? = nil
  static let testValue: (any SharedKey<Int>)? = nil
}
