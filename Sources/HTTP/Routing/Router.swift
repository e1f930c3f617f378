/// An async request handler. Throw ``HTTPError`` to answer with a JSON error; any other
/// error becomes a 500 `internal_error`.
public typealias Handler = @Sendable (Request) async throws -> Response

/// A request handler that answers without suspending. On the event loop it is called
/// directly, with no task, so answers such as health checks and static files cost least.
public typealias ImmediateHandler = @Sendable (Request) throws -> Response

/// A request handler that answers at once when it can, and otherwise says what is left to
/// do. On the event loop it is called directly; only a ``EagerResponse/later(_:)`` answer
/// runs in a task.
public typealias EagerHandler = @Sendable (Request) throws -> EagerResponse

/// What an ``EagerHandler`` gives back.
public enum EagerResponse: Sendable {
  /// The answer, given at once.
  case now(Response)
  /// The work left before the answer: it runs in a task, where the handler's route runs.
  case later(@Sendable () async throws -> Response)
}

/// Maps a method and a path pattern to a handler.
///
/// ```swift
/// var router = Router()
/// router.get("/api/sessions/{id}") { request in
///   .text("session \(request.parameters["id"]!)")
/// }
/// router.setFallback(StaticFiles(root: "Public").respond)
/// ```
///
/// A path with no route goes to ``fallback`` (404 JSON without one); a path whose routes
/// lack the method answers 405 JSON with `Allow`, or 204 with `Allow` for OPTIONS. GET
/// routes also answer HEAD. Handlers run on their connection's event loop unless their route
/// says ``Placement/sharedPool``; there, a closure that never awaits (an
/// ``ImmediateHandler``) is called directly, an async one runs in a task, and an
/// ``EagerHandler`` is called directly and given a task only for the work it leaves.
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

  /// A route's handler, as it was given.
  enum Responder: Sendable {
    case immediate(ImmediateHandler)
    case eager(EagerHandler)
    case async(Handler)

    /// The handler as an async one.
    var asAsync: Handler {
      switch self {
      case .immediate(let handler): { request in try handler(request) }
      case .eager(let handler):
        { request in
          switch try handler(request) {
          case .now(let response): response
          case .later(let rest): try await rest()
          }
        }
      case .async(let handler): handler
      }
    }

    /// The same handler; one that answers without suspending in a closure of its own (see
    /// ``Router/copiedForOneLoop()``). An async one is kept as it is: wrapping it would add
    /// a frame to its task, which then outgrows the room the task is made with and
    /// allocates, costing more than the shared count it saves.
    var rewrapped: Responder {
      switch self {
      case .immediate(let handler): .immediate { request in try handler(request) }
      case .eager(let handler): .eager { request in try handler(request) }
      case .async: self
      }
    }
  }

  private struct Route: Sendable {
    var method: String
    var pattern: PathPattern
    var placement: Placement
    var responder: Responder
  }

  private var routes: [Route] = []
  /// The indices of `routes` by how many segments their patterns have, in order: a path is
  /// matched only against the routes that could match it.
  private var routesBySegmentCount: [[Int]] = []
  private var fallbackResponder: Responder?
  /// Handles paths that match no route. `nil`: 404 JSON. ``setFallback(_:)`` sets one that
  /// answers without suspending, such as ``StaticFiles/respond(to:)``.
  public var fallback: Handler? {
    get { fallbackResponder?.asAsync }
    set { fallbackResponder = newValue.map(Responder.async) }
  }
  /// Where ``fallback`` runs. Default: the event loop, where ``StaticFiles`` answers from
  /// the files it keeps (reading a file only the first time, or after it changed); a
  /// fallback that blocks or computes for long belongs on ``Placement/sharedPool``.
  public var fallbackPlacement = Placement.eventLoop

  /// A router with no routes.
  public init() {}

  /// Sets ``fallback`` to a handler that answers without suspending: on the event loop
  /// it is called directly, e.g. `router.setFallback(StaticFiles(root: "Public").respond)`.
  public mutating func setFallback(_ handler: @escaping ImmediateHandler) {
    fallbackResponder = .immediate(handler)
  }

  /// Adds a route. `pattern` is a path whose `{name}` segments capture one path segment.
  public mutating func on(
    _ method: String, _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler
  ) {
    add(method, pattern, placement, .async(handler))
  }

  /// Adds a route whose handler answers without suspending (see ``ImmediateHandler``).
  public mutating func on(
    _ method: String, _ pattern: String, runsOn placement: Placement = .eventLoop,
    _ handler: @escaping ImmediateHandler
  ) {
    add(method, pattern, placement, .immediate(handler))
  }

  /// Adds a route whose handler answers at once when it can (see ``EagerHandler``).
  public mutating func on(
    _ method: String, _ pattern: String, runsOn placement: Placement = .eventLoop,
    _ handler: @escaping EagerHandler
  ) {
    add(method, pattern, placement, .eager(handler))
  }

  private mutating func add(_ method: String, _ pattern: String, _ placement: Placement, _ responder: Responder) {
    add(method, PathPattern(pattern), placement, responder)
  }

  private mutating func add(_ method: String, _ pattern: PathPattern, _ placement: Placement, _ responder: Responder) {
    while routesBySegmentCount.count <= pattern.segmentCount { routesBySegmentCount.append([]) }
    routesBySegmentCount[pattern.segmentCount].append(routes.count)
    routes.append(Route(method: method, pattern: pattern, placement: placement, responder: responder))
  }

  /// A router with the same routes for one event loop's thread alone: its tables, and the
  /// closures of handlers that answer without suspending, are its own, so choosing and
  /// calling such a handler counts no reference that a loop on another core also counts (an
  /// atomic count another core wrote last costs a cache miss). The handlers are the same
  /// functions with the same captures.
  func copiedForOneLoop() -> Router {
    var copy = Router()
    for route in routes {
      copy.add(route.method, route.pattern.copied(), route.placement, route.responder.rewrapped)
    }
    copy.fallbackResponder = fallbackResponder?.rewrapped
    copy.fallbackPlacement = fallbackPlacement
    return copy
  }

  /// Adds a GET route (which also answers HEAD).
  public mutating func get(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("GET", pattern, runsOn: placement, handler)
  }
  /// Adds a GET route answered without suspending.
  public mutating func get(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping ImmediateHandler
  ) {
    on("GET", pattern, runsOn: placement, handler)
  }
  /// Adds a POST route.
  public mutating func post(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("POST", pattern, runsOn: placement, handler)
  }
  /// Adds a POST route answered without suspending.
  public mutating func post(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping ImmediateHandler
  ) {
    on("POST", pattern, runsOn: placement, handler)
  }
  /// Adds a POST route answered at once when it can.
  public mutating func post(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping EagerHandler
  ) {
    on("POST", pattern, runsOn: placement, handler)
  }
  /// Adds a PUT route.
  public mutating func put(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("PUT", pattern, runsOn: placement, handler)
  }
  /// Adds a PUT route answered without suspending.
  public mutating func put(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping ImmediateHandler
  ) {
    on("PUT", pattern, runsOn: placement, handler)
  }
  /// Adds a PATCH route.
  public mutating func patch(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("PATCH", pattern, runsOn: placement, handler)
  }
  /// Adds a PATCH route answered without suspending.
  public mutating func patch(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping ImmediateHandler
  ) {
    on("PATCH", pattern, runsOn: placement, handler)
  }
  /// Adds a DELETE route.
  public mutating func delete(_ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping Handler) {
    on("DELETE", pattern, runsOn: placement, handler)
  }
  /// Adds a DELETE route answered without suspending.
  public mutating func delete(
    _ pattern: String, runsOn placement: Placement = .eventLoop, _ handler: @escaping ImmediateHandler
  ) {
    on("DELETE", pattern, runsOn: placement, handler)
  }

  /// What answers a request for `path` with `method`: a handler with the path's parameters,
  /// or an answer the router gives itself (404, 405, OPTIONS). The request is not needed
  /// to choose, so the caller builds it once, with the parameters.
  func resolve(method requestMethod: String, path: String) -> Resolution {
    if requestMethod == "OPTIONS" && path == "*" {
      return .answer(Response(status: 204, headers: ["Allow": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"]))
    }
    var allowed: [String] = []
    let segmentCount = PathPattern.segmentCount(of: path)
    if segmentCount < routesBySegmentCount.count {
      for index in routesBySegmentCount[segmentCount] {
        guard let parameters = routes[index].pattern.match(path) else { continue }
        let method = routes[index].method
        if method == requestMethod || (requestMethod == "HEAD" && method == "GET") {
          return Resolution(routes[index].responder, parameters, routes[index].placement)
        }
        allowed.append(method)
        if method == "GET" { allowed.append("HEAD") }
      }
    }
    if allowed.isEmpty {
      if let fallbackResponder { return Resolution(fallbackResponder, [:], fallbackPlacement) }
      return .answer(HTTPError.notFound().response)
    }
    allowed.append("OPTIONS")
    var unique: [String] = []
    for method in allowed where !unique.contains(method) { unique.append(method) }
    let allow = unique.joined(separator: ", ")
    if requestMethod == "OPTIONS" { return .answer(Response(status: 204, headers: ["Allow": allow])) }
    return .answer(
      HTTPError(
        status: 405, code: "method_not_allowed", message: "This path does not support the \(requestMethod) method.",
        headers: ["Allow": allow]
      ).response)
  }

  /// Runs the handler for `request` and turns thrown errors into JSON answers.
  public func respond(to request: Request) async -> Response {
    var routed = request
    switch resolve(method: request.method, path: request.path) {
    case .answer(let response):
      return response
    case .immediate(let handler, let parameters):
      routed.parameters = parameters
      return Self.run(handler, routed)
    case .eager(let handler, let parameters):
      routed.parameters = parameters
      switch Self.run(handler, routed) {
      case .now(let response): return response
      case .later(let rest): return await Self.run(rest)
      }
    case .handler(let handler, let parameters, _):
      routed.parameters = parameters
      return await Self.run(handler, routed)
    }
  }

  /// Runs `handler`, turning thrown errors into JSON answers.
  static func run(_ handler: Handler, _ request: Request) async -> Response {
    do {
      return try await handler(request)
    } catch {
      return answer(for: error)
    }
  }

  /// Calls `handler`, turning thrown errors into JSON answers.
  static func run(_ handler: ImmediateHandler, _ request: Request) -> Response {
    do {
      return try handler(request)
    } catch {
      return answer(for: error)
    }
  }

  /// Calls `handler`, turning a thrown error into its JSON answer, given at once.
  static func run(_ handler: EagerHandler, _ request: Request) -> EagerResponse {
    do {
      return try handler(request)
    } catch {
      return .now(answer(for: error))
    }
  }

  /// Runs the rest of an ``EagerHandler``'s work, turning thrown errors into JSON answers.
  static func run(_ rest: @Sendable () async throws -> Response) async -> Response {
    do {
      return try await rest()
    } catch {
      return answer(for: error)
    }
  }

  private static func answer(for error: any Error) -> Response {
    if let error = error as? HTTPError { return error.response }
    return HTTPError(status: 500, code: "internal_error", message: "The server failed to handle the request.")
      .response
  }

  /// How the router answers one request.
  enum Resolution {
    /// Run this handler (where the placement says) with the request, given these path
    /// parameters.
    case handler(Handler, parameters: [String: String], Placement)
    /// Call this handler now, on the event loop, with the request, given these parameters.
    case immediate(ImmediateHandler, parameters: [String: String])
    /// Call this handler now, on the event loop, and run what it leaves in a task there.
    case eager(EagerHandler, parameters: [String: String])
    /// Answer this at once.
    case answer(Response)

    init(_ responder: Responder, _ parameters: [String: String], _ placement: Placement) {
      switch (responder, placement) {
      case (.immediate(let handler), .eventLoop): self = .immediate(handler, parameters: parameters)
      case (.immediate, .sharedPool), (.eager, .sharedPool):
        self = .handler(responder.asAsync, parameters: parameters, placement)
      case (.eager(let handler), .eventLoop): self = .eager(handler, parameters: parameters)
      case (.async(let handler), _): self = .handler(handler, parameters: parameters, placement)
      }
    }
  }
}
