import Synchronization

/// One HTTP request as a handler sees it: the head, the whole body, and where it came from.
public struct Request: Sendable {
  /// The method, e.g. `GET`.
  public var method: String
  /// The path of the request target, still percent-encoded, e.g. `/api/sessions/42/events`.
  public var path: String
  /// The raw query string after `?`, if any.
  public var query: String?
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body bytes (empty without a body).
  public var body: [UInt8]
  /// The peer's address as `host:port`.
  public var remoteAddress: String
  /// Path parameters captured by the route pattern, percent-decoded: `{id}` -> `parameters["id"]`.
  public var parameters: [String: String]
  /// 1 for HTTP/1.1, 0 for HTTP/1.0.
  public var minorVersion: Int
  /// The core of the event loop that read the request (its own object, see ``ServerCore``).
  let server: ServerCore?

  /// A request built by hand, for tests of handlers.
  public init(
    method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: [UInt8] = [],
    remoteAddress: String = "127.0.0.1:0"
  ) {
    self.init(
      method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
      parameters: Dictionary(), minorVersion: 1, server: nil)
  }

  /// A request as a connection hands it to its handler: made whole in one step.
  init(
    method: String, path: String, query: String?, headers: HTTPHeaders, body: [UInt8], remoteAddress: String,
    parameters: [String: String], minorVersion: Int, server: ServerCore?
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
    self.parameters = parameters
    self.minorVersion = minorVersion
    self.server = server
  }

  /// The query items, percent-decoded (`+` as space), in order; a name may repeat.
  public var queryItems: [(name: String, value: String)] {
    guard let query, !query.isEmpty else { return [] }
    return query.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = PercentDecoding.decode(String(parts[0]), plusAsSpace: true) ?? String(parts[0])
      let value =
        parts.count > 1 ? (PercentDecoding.decode(String(parts[1]), plusAsSpace: true) ?? String(parts[1])) : ""
      return (name, value)
    }
  }

  /// The first value of the query item `name`, or `nil`.
  public func queryItem(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

  /// Whether the server serving this request is shutting down (health checks answer 503).
  public var isDraining: Bool { server?.state.isDraining ?? false }

  /// Counters of the server serving this request (all zero for a hand-built request).
  public var serverMetrics: ServerMetrics { server?.state.metrics ?? ServerMetrics() }
}
