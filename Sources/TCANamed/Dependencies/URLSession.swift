#if URLSession && canImport(FoundationNetworking)
  // On Linux `URLSession` lives in FoundationNetworking, which links libcurl: a server opts
  // in with the package's `URLSession` trait, and then gets it through this module, as
  // Apple platforms give it with Foundation.
  @_exported import FoundationNetworking
  import Foundation

  extension DependencyValues {
    /// The URL session live clients fetch with: `URLSession.shared`. A test sets its own
    /// (`$0.urlSession = URLSession(configuration: .ephemeral)`); using it unset reports an
    /// issue.
    ///
    /// Declared when the package's `URLSession` trait is on:
    /// `.package(path: "StoreHost", traits: ["URLSession"])`.
    public var urlSession: URLSession {
      get { self[URLSessionKey.self] }
      set { self[URLSessionKey.self] = newValue }
    }
  }

  private enum URLSessionKey: DependencyKey {
    static var liveValue: URLSession { .shared }
  }
#endif
