extension DependencyValues {
  /// TCA's `URLSession` dependency, which StoreHost cannot offer: on Linux `URLSession` is in
  /// FoundationNetworking, which would link libcurl into every server. A feature that names
  /// it compiles, with this warning; one that calls it does not.
  @available(
    *, deprecated,
    message: "URLSession is in FoundationNetworking on Linux, which StoreHost does not link: write a client of your own (@DependencyClient) whose live value uses your HTTP stack"
  )
  public var urlSession: UnavailableURLSession { UnavailableURLSession() }
}

/// What ``DependencyValues/urlSession`` gives: nothing to call.
public struct UnavailableURLSession: Sendable {}
