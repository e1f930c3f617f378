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
/// routes also answer HEAD.
public struct Router: Sendable {
  private struct Route: Sendable {
    var method: String
    var pattern: PathPattern
    var handler: Handler
  }

  private var routes: [Route] = []
  /// Handles paths that match no route, e.g. static files. `nil`: 404 JSON.
  public var fallback: Handler?

  /// A router with no routes.
  public init() {}

  /// Adds a route. `pattern` is a path whose `{name}` segments capture one path segment.
  public mutating func on(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
    routes.append(Route(method: method, pattern: PathPattern(pattern), handler: handler))
  }

  /// Adds a GET route (which also answers HEAD).
  public mutating func get(_ pattern: String, _ handler: @escaping Handler) { on("GET", pattern, handler) }
  /// Adds a POST route.
  public mutating func post(_ pattern: String, _ handler: @escaping Handler) { on("POST", pattern, handler) }
  /// Adds a PUT route.
  public mutating func put(_ pattern: String, _ handler: @escaping Handler) { on("PUT", pattern, handler) }
  /// Adds a PATCH route.
  public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { on("PATCH", pattern, handler) }
  /// Adds a DELETE route.
  public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { on("DELETE", pattern, handler) }

  /// Runs the handler for `request` and turns thrown errors into JSON answers.
  public func respond(to request: Request) async -> Response {
    do {
      return try await route(request)
    } catch let error as HTTPError {
      return error.response
    } catch {
      return HTTPError(status: 500, code: "internal_error", message: "The server failed to handle the request.")
        .response
    }
  }

  private func route(_ request: Request) async throws -> Response {
    if request.method == "OPTIONS" && request.path == "*" {
      return Response(status: 204, headers: ["Allow": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"])
    }
    let segments = PathPattern.segments(of: request.path)
    var allowed: [String] = []
    for route in routes {
      guard let parameters = route.pattern.match(segments) else { continue }
      if route.method == request.method || (request.method == "HEAD" && route.method == "GET") {
        var routed = request
        routed.parameters = parameters
        return try await route.handler(routed)
      }
      allowed.append(route.method)
      if route.method == "GET" { allowed.append("HEAD") }
    }
    if allowed.isEmpty {
      if let fallback { return try await fallback(request) }
      throw HTTPError.notFound()
    }
    allowed.append("OPTIONS")
    var unique: [String] = []
    for method in allowed where !unique.contains(method) { unique.append(method) }
    let allow = unique.joined(separator: ", ")
    if request.method == "OPTIONS" { return Response(status: 204, headers: ["Allow": allow]) }
    throw HTTPError(
      status: 405, code: "method_not_allowed", message: "This path does not support the \(request.method) method.",
      headers: ["Allow": allow])
  }
}
