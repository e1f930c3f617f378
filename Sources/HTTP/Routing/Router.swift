/// An async request handler. Throw ``HTTPError`` to answer with a JSON error; any other
/// error becomes a 500 `internal_error`.
public typealias Handler = @Sendable (Request) async throws -> Response

/// Maps a method and a path pattern to a handler.
///
/// ```swift
/// var router = Router()
/// router.get("/api/sessions/{id}") { request in
///   .text("session \(request.parameters["id"]!)")
/// }
/// router.fallback = StaticFiles(root: "Public").handler
/// ```
///
/// A path with no route goes to ``fallback`` (404 JSON without one); a path whose routes
/// lack the method answers 405 JSON with `Allow`, or 204 with `Allow` for OPTIONS. GET
/// routes also answer HEAD. Handlers run on their connection's event loop unless their route
/// says ``Placement/sharedPool``.
public struct Router: Sendable {
  /// Where a route's handler runs.
  public enum Placement: Sendable {
    /// On the thread of the event loop that read the request, between its passes over its
    /// sockets: no other thread is woken to answer. For handlers that neither block their
    /// thread nor compute for long (the default).
    case eventLoop
    /// On Swift's shared pool of threads: for handlers that block (file reads, blocking
    /// calls) or compute for long, which would hold up the loop's other connections.
    case sharedPool
  }

  private struct Route: Sendable {
    var method: String
    var pattern: PathPattern
    var placement: Placement
    var handler: Handler
  }

  private var routes: [Route] = []
  /// Handles paths that match no route, e.g. static files. `nil`: 404 JSON.
  public var fallback: Handler?
  /// Where ``fallback`` runs. Default: the event loop, where ``StaticFiles`` answers from
  /// the files it keeps (reading a file only the first time, or after it changed); a
  /// fallback that blocks or computes for long belongs on ``Placement/sharedPool``.
  public var fallbackPlacement = Placement.eventLoop

  /// A router with no routes.
  public init() {}

  /// Adds a route. `pattern` is a path whose `{name}` segments capture one path segment.
  public mutating func on(
    _ method: String, _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler
  ) {
    routes.append(Route(method: method, pattern: PathPattern(pattern), placement: placement, handler: handler))
  }

  /// Adds a GET route (which also answers HEAD).
  public mutating func get(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("GET", pattern, runsOn: placement, handler)
  }
  /// Adds a POST route.
  public mutating func post(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("POST", pattern, runsOn: placement, handler)
  }
  /// Adds a PUT route.
  public mutating func put(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("PUT", pattern, runsOn: placement, handler)
  }
  /// Adds a PATCH route.
  public mutating func patch(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("PATCH", pattern, runsOn: placement, handler)
  }
  /// Adds a DELETE route.
  public mutating func delete(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("DELETE", pattern, runsOn: placement, handler)
  }

  /// What answers `request`: a handler with its path parameters, or an answer the router
  /// gives itself (404, 405, OPTIONS).
  func resolve(_ request: Request) -> Resolution {
    if request.method == "OPTIONS" && request.path == "*" {
      return .answer(Response(status: 204, headers: ["Allow": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"]))
    }
    let segments = PathPattern.segments(of: request.path)
    var allowed: [String] = []
    for route in routes {
      guard let parameters = route.pattern.match(segments) else { continue }
      if route.method == request.method || (request.method == "HEAD" && route.method == "GET") {
        var routed = request
        routed.parameters = parameters
        return .handler(route.handler, routed, route.placement)
      }
      allowed.append(route.method)
      if route.method == "GET" { allowed.append("HEAD") }
    }
    if allowed.isEmpty {
      if let fallback { return .handler(fallback, request, fallbackPlacement) }
      return .answer(HTTPError.notFound().response)
    }
    allowed.append("OPTIONS")
    var unique: [String] = []
    for method in allowed where !unique.contains(method) { unique.append(method) }
    let allow = unique.joined(separator: ", ")
    if request.method == "OPTIONS" { return .answer(Response(status: 204, headers: ["Allow": allow])) }
    return .answer(
      HTTPError(
        status: 405, code: "method_not_allowed", message: "This path does not support the \(request.method) method.",
        headers: ["Allow": allow]
      ).response)
  }

  /// Runs the handler for `request` and turns thrown errors into JSON answers.
  public func respond(to request: Request) async -> Response {
    switch resolve(request) {
    case .answer(let response): response
    case .handler(let handler, let routed, _): await Self.run(handler, routed)
    }
  }

  /// Runs `handler`, turning thrown errors into JSON answers.
  static func run(_ handler: Handler, _ request: Request) async -> Response {
    do {
      return try await handler(request)
    } catch let error as HTTPError {
      return error.response
    } catch {
      return HTTPError(status: 500, code: "internal_error", message: "The server failed to handle the request.")
        .response
    }
  }

  /// How the router answers one request.
  enum Resolution {
    /// Run this handler (where the placement says) with the request and its parameters.
    case handler(Handler, Request, Placement)
    /// Answer this at once.
    case answer(Response)
  }
}
