@_spi(Hosting) import Composable
import Foundation
import HTTP

extension SessionHost {
  /// Adds the session API of <doc:WireProtocol> to `router`: `/api/sessions` and
  /// below, `/api/events`, `/healthz`, `/readyz`, `/metrics`, `/api/schema`, and the browser client
  /// under `/storehost/v1/`.
  public func addRoutes(to router: inout Router) {
    router.post("/api/sessions") { [self] request in try await createSession(request) }
    router.get("/api/sessions/{id}") { [self] request in try await state(request) }
    router.post("/api/sessions/{id}/actions") { [self] request in try actions(request) }
    router.get("/api/sessions/{id}/events") { [self] request in try await events(request) }
    router.delete("/api/sessions/{id}") { [self] request in try await delete(request) }
    router.post("/api/sessions/{id}/tickets") { [self] request in try await issueTicket(request) }
    router.get("/api/events") { [self] request in try await multiplexedEvents(request) }
    router.get("/healthz") { request in
      request.isDraining ? HTTPError.shuttingDown().response : healthyResponse()
    }
    router.get("/readyz") { [self] request in readinessResponse(request) }
    router.get("/metrics") { [self] request in metricsResponse(request) }
    router.get("/api/schema") { [self] _ in schemaResponse() }
    router.get(BrowserClient.path + "{file}") { request in try BrowserClient.respond(to: request) }
    addHistoryRoutes(to: &router)
  }

  // MARK: Handlers

  /// `POST /api/sessions`: 201 `{"id", "token", "version", "state"}` and the token cookie.
  private func createSession(_ request: Request) async throws -> Response {
    guard !request.isDraining else { throw HTTPError.shuttingDown() }
    try Authentication.checkSameOrigin(request)
    return try createdSessionResponse(try await createSession())
  }

  /// 201 `{"id", "token", "version", "state"}` (and the members of `extra`, when given) and
  /// the token cookie, for a session just created.
  func createdSessionResponse(_ session: Session<State, Action>, adding extra: [UInt8]? = nil) throws -> Response {
    let token = tokenSigner.issue(sessionID: session.id)
    let (state, version) = try session.currentJSON()
    var json = Array(#"{"id":"\#(session.id)","token":"\#(token)","version":\#(version),"state":"#.utf8) + state
    if let extra { json += [UInt8(ascii: ",")] + extra }
    var response = jsonResponse(json + [UInt8(ascii: "}")], status: 201)
    response.headers.add(
      "Set-Cookie", Authentication.cookie(for: token, session: session.id, secure: configuration.secureCookies))
    return response
  }

  /// `GET /api/sessions/{id}`: 200 `{"id", "version", "state"}`.
  private func state(_ request: Request) async throws -> Response {
    if cluster != nil { return try await clusteredState(request) }
    let session = try await authorizedSession(request)
    session.touch()
    let (state, version) = try session.currentJSON()
    return stateResponse(id: session.id, version: version, state: state)
  }

  /// `POST /api/sessions/{id}/actions`: one action or an array, all or none; 202 `{"version"}`.
  /// Answered at once, on the event loop, when the session is live here, the request has no
  /// `Idempotency-Key` and waits for no effects, and its version may be shown already; what
  /// else needs waiting (a session brought back, a key, a save, a cluster) finishes in a task.
  private func actions(_ request: Request) throws -> EagerResponse {
    let started = ContinuousClock.now
    do {
      let key = try checkActionsRequest(request)
      guard key == nil, cluster == nil, reducerThreads == nil, let session = try enteredLiveSession(request) else {
        return .later { [self] in try await counted(since: started) { try await applyActions(request, key: key) } }
      }
      let sent: SentActions
      do {
        sent = try send(request, to: session)
      } catch {
        session.exit()
        throw error
      }
      guard sent.effects.isEmpty, session.isPublishable(sent.applied.version) else {
        return .later { [self] in
          try await counted(since: started) {
            defer { session.exit() }
            return try await answer(sent, in: session)
          }
        }
      }
      session.exit()
      return .now(counted(sent.applied.response, since: started))
    } catch {
      metrics.actionRequestsRejected.add(1, ordering: .relaxed)
      throw error
    }
  }

  /// `response` to an actions request made at `started`, counted in the metrics: its
  /// latency, or a rejection.
  private func counted(_ response: Response, since started: ContinuousClock.Instant) -> Response {
    if response.status >= 400 {
      metrics.actionRequestsRejected.add(1, ordering: .relaxed)
    } else {
      metrics.actionLatency.observe((ContinuousClock.now - started).secondsValue)
    }
    return response
  }

  /// The answer `respond` gives an actions request made at `started`, counted in the
  /// metrics, as is a thrown error.
  private func counted(
    since started: ContinuousClock.Instant, _ respond: () async throws -> Response
  ) async throws -> Response {
    do {
      return counted(try await respond(), since: started)
    } catch {
      metrics.actionRequestsRejected.add(1, ordering: .relaxed)
      throw error
    }
  }

  /// Checks what an actions request can be refused for before its session is found: its
  /// media type, its size, its `Idempotency-Key` (returned), and storage taking changes.
  private func checkActionsRequest(_ request: Request) throws -> String? {
    guard request.hasJSONContentType else { throw HTTPError.unsupportedMediaType() }
    let limits = configuration.limits
    guard request.body.count <= limits.maxActionBodyBytes else {
      throw HTTPError.payloadTooLarge(
        "An actions body may hold at most \(limits.maxActionBodyBytes) bytes.")
    }
    let key = try IdempotencyKey.of(request)
    try checkStorageTakesChanges()
    return key
  }

  /// Places the request's session, here or in another process of the cluster, and applies
  /// the actions there.
  private func applyActions(_ request: Request, key: String?) async throws -> Response {
    var key = key
    let deadline = ContinuousClock.now + (cluster.map { $0.leaseDuration * 2 } ?? .zero)
    while true {
      let session: Session<State, Action>
      switch try await placeSession(request, key: key) {
      case .local(let local, let placedKey): (session, key) = (local, placedKey)
      case .forwarded(let response): return response
      }
      do {
        let response = try await apply(request, key: key, to: session)
        session.exit()
        handOverIfRoutedElsewhere(session, after: request)
        return response
      } catch let error as HTTPError
        where (error.isNothingApplied || key != nil) && error.isRetryableInCluster && ContinuousClock.now < deadline
      {
        // The session left this process mid-request (nothing was applied, so the request
        // follows it, with or without a key), or its save's outcome is unknown (sent again
        // with its key, it is applied at most once).
        session.exit()
      } catch {
        session.exit()
        throw error
      }
    }
  }

  /// Applies the request's actions to `session`, served here, and answers once their
  /// version is publishable (with strict durability, saved).
  private func apply(_ request: Request, key: String?, to session: Session<State, Action>) async throws -> Response {
    guard let key else { return try await answer(try await sendActions(request, to: session), in: session) }
    return try await answerOnce(request, key: key, session: session)
  }

  /// The answer to actions `sent` to `session` without a key, once the effects the request
  /// asked to wait for finished and its version is publishable.
  private func answer(_ sent: SentActions, in session: Session<State, Action>) async throws -> Response {
    let applied = await waitForEffectsIfAsked(sent, in: session)
    do {
      try await session.waitUntilPublishable(applied.version)
    } catch {
      throw saveFailed(session, error: error)
    }
    return applied.response
  }

  /// ``send(_:to:)``, on a reducer thread in a cluster: a reducer there may wait for the
  /// database (a shared value every process changes), which must not hold up an event loop.
  func sendActions(_ request: Request, to session: Session<State, Action>) async throws -> SentActions {
    guard let reducerThreads else { return try send(request, to: session) }
    return try await reducerThreads.run { [self] in try send(request, to: session) }
  }

  /// Decodes the request's actions and sends them to the session's store, in order: 202
  /// `{"version"}`, or the refusal of a change past the size limit (413) with the actions
  /// before it applied. The answer may be given once its version is publishable
  /// (``Session/waitUntilPublishable(_:)``; with strict durability, saved).
  func send(_ request: Request, to session: Session<State, Action>) throws -> SentActions {
    let limits = configuration.limits
    let read: ClientActions<Action>
    do {
      read = try ActionDecoding.decodeClientActions(Action.self, from: request.body, keepingJSON: session.history != nil)
    } catch {
      throw HTTPError.invalidAction(error.message)
    }
    let actions = read.actions
    guard !actions.isEmpty else { throw HTTPError.invalidAction("The array of actions is empty.") }
    guard actions.count <= limits.maxActionsPerBatch else {
      throw HTTPError.payloadTooLarge("A batch may hold at most \(limits.maxActionsPerBatch) actions.")
    }
    if case let .limited(retryAfter) = session.admit(actions: actions.count) {
      throw HTTPError.rateLimited(
        retryAfter: retryAfter,
        "This session sent more than \(Int(limits.actionsPerSecond)) actions per second; slow down.")
    }
    guard session.store.runningEffectCount < limits.maxRunningEffectsPerSession else {
      throw HTTPError.rateLimited(
        retryAfter: .seconds(1),
        "This session runs \(limits.maxRunningEffectsPerSession) effects already; wait for some to finish.")
    }
    // A request's actions are saved once, at their last version, not once per action.
    let savesOnce = actions.count > 1
    if savesOnce { session.holdSaves() }
    defer { if savesOnce { session.releaseSaves() } }
    let batch = session.applyingBatch { () -> ([StoreTask], HTTPError?, Int) in
      var tasks: [StoreTask] = []
      for (index, action) in actions.enumerated() {
        let task =
          if let history = session.history, let json = read.json?[index] {
            history.sendingClientAction(json: json) { session.store.send(action) }
          } else {
            session.store.send(action)
          }
        guard !task.isRefused else {
          metrics.changesRefused.add(1, ordering: .relaxed)
          return (tasks, HTTPError.changeRefused(session.lastRefusal, applied: tasks.count, version: session.version), session.version)
        }
        tasks.append(task)
      }
      return (tasks, nil, session.version)
    }
    // The session ended (deleted) or, in a cluster, was dropped here while the request was on
    // its way: nothing was applied.
    guard let (tasks, refusal, version) = batch else {
      throw cluster == nil ? HTTPError.sessionNotFound() : HTTPError.sessionMoved()
    }
    metrics.actionsApplied.add(tasks.count, ordering: .relaxed)
    return SentActions(
      applied: AppliedActions(
        response: refusal?.response ?? jsonResponse(#"{"version":\#(version)}"#, status: 202), version: version),
      effects: refusal == nil && request.queryItem("wait") == "effects" ? tasks : [])
  }

  /// `sent`'s answer, once the effects the request asked to wait for (`?wait=effects`)
  /// finished: 202 with the version they reached.
  func waitForEffectsIfAsked(_ sent: SentActions, in session: Session<State, Action>) async -> AppliedActions {
    guard !sent.effects.isEmpty else { return sent.applied }
    await waitForEffects(sent.effects)
    let version = session.version
    return AppliedActions(response: jsonResponse(#"{"version":\#(version)}"#, status: 202), version: version)
  }

  /// `GET /api/sessions/{id}/events`: the session's state as Server-Sent Events.
  private func events(_ request: Request) async throws -> Response {
    if cluster != nil { return try await clusteredEvents(request) }
    let session = try await authorizedSession(request)
    guard session.events.clientCount < configuration.limits.maxEventStreamsPerSession else {
      throw tooManyStreams(here: false)
    }
    session.touch()
    let options = EventStreamRequest(request)
    let retry = Int(configuration.eventStreamRetry.secondsValue * 1000)
    if options.presence { startReportingPresence() }
    return .eventStream(onOpen: { [self] stream in
      stream.retry(milliseconds: retry)
      switch watch(session, sink: stream, options: options.watch, onEnd: { stream.finish() }) {
      case .success(let stop): stream.onClose(stop)
      case .failure: stream.finish()
      }
    })
  }

  /// `DELETE /api/sessions/{id}`: 204; cancels the session's effects and ends its streams.
  /// A session this build cannot read is deleted from storage too.
  private func delete(_ request: Request) async throws -> Response {
    if let id = try unreadableSession(request) {
      unreadable.withLock { _ = $0.removeValue(forKey: id) }
      try await persistence.delete(id)
      return Response(status: 204)
    }
    let session: Session<State, Action>
    switch try await placeSession(request, key: nil) {
    case .local(let local, _): session = local
    case .forwarded(let response): return response
    }
    defer { session.exit() }
    await end(session)
    return Response(status: 204)
  }

  /// `GET /metrics`: the host's and the server's counters in the Prometheus text format.
  private func metricsResponse(_ request: Request) -> Response {
    let sessions = allSessions
    let server = request.serverMetrics
    let gauges: [(String, String, String, Int)] = [
      ("storehost_sessions", "gauge", "Sessions in memory.", sessions.count),
      ("storehost_sessions_created_total", "counter", "Sessions created.", metrics.sessionsCreated.load(ordering: .relaxed)),
      ("storehost_sessions_ended_total", "counter", "Sessions deleted or evicted.", metrics.sessionsEnded.load(ordering: .relaxed)),
      ("storehost_sessions_rested_total", "counter", "Sessions saved and taken out of memory while idle.", metrics.sessionsRested.load(ordering: .relaxed)),
      ("storehost_sessions_brought_back_total", "counter", "Sessions brought back into memory from storage.", metrics.sessionsBroughtBack.load(ordering: .relaxed)),
      ("storehost_sessions_unreadable", "gauge", "Saved sessions this build cannot read, kept unserved.", unreadable.withLock { $0.count }),
      ("storehost_actions_total", "counter", "Actions applied.", metrics.actionsApplied.load(ordering: .relaxed)),
      ("storehost_action_requests_rejected_total", "counter", "Action requests answered with an error.", metrics.actionRequestsRejected.load(ordering: .relaxed)),
      ("storehost_changes_refused_total", "counter", "Actions refused because the state would pass --max-state-bytes.", metrics.changesRefused.load(ordering: .relaxed)),
      ("storehost_requests_forwarded_total", "counter", "Requests sent on to the process owning their session.", metrics.requestsForwarded.load(ordering: .relaxed)),
      ("storehost_effects_running", "gauge", "Effects running in all sessions.", sessions.reduce(0) { $0 + $1.store.runningEffectCount }),
      ("storehost_followed_sessions", "gauge", "Sessions this process follows for event streams, in a cluster.", followers?.followedCount ?? 0),
      ("storehost_event_stream_clients", "gauge", "Sessions watched by event streams (a stream of several counts each).", sessions.reduce(0) { $0 + $1.events.clientCount } + (followers?.totalClientCount ?? 0)),
      ("storehost_storage_failing", "gauge", "1 while writes to storage fail, else 0.", storageHealth.isFailing ? 1 : 0),
      ("storehost_storage_write_failures_total", "counter", "Writes to storage that failed.", storageHealth.failedWrites),
      ("storehost_storage_failures_total", "counter", "Times writing to storage started to fail.", storageHealth.failureEpisodes),
      ("storehost_http_connections", "gauge", "Open HTTP connections.", server.openConnections),
      ("storehost_http_event_streams", "gauge", "Open event streams (one watching several sessions counts once).", server.openEventStreams),
      ("storehost_http_responses_total", "counter", "HTTP responses written.", server.responses),
      ("storehost_http_bytes_written_total", "counter", "HTTP response bytes written.", server.bytesWritten),
    ]
    let clusterMetrics = (cluster?.metrics ?? []).map { ($0.name, $0.kind.rawValue, $0.help, $0.value) }
    var lines = (gauges + clusterMetrics).map { name, type, help, value in
      "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)"
    }
    lines.append(
      metrics.actionLatency.exposition(
        name: "storehost_action_request_seconds", help: "Time to answer an actions request."))
    var response = Response.text(lines.joined(separator: "\n") + "\n")
    response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
    return response
  }

  // MARK: Helpers

  /// The session named by the path, once the request proved it may use it, brought back
  /// from storage if it rests there.
  /// - Throws: 503 `session_unreadable` for a session this build cannot read.
  func authorizedSession(_ request: Request) async throws -> Session<State, Action> {
    try await liveSession(try authorizedID(request))
  }

  /// The id of the session the path names, once the request proved it may use it.
  private func authorizedID(_ request: Request) throws -> SessionID {
    guard let id = request.parameters["id"].flatMap(SessionID.init) else { throw HTTPError.sessionNotFound() }
    _ = try Authentication.authenticate(request, for: id, with: tokenSigner)
    return id
  }

  /// The session the path names, with the request counted in (``Session/enter()``), when it
  /// is live here, once the request proved it may use it; `nil` when it rests, is being
  /// brought back or is leaving (``enteredSession(_:)`` waits for those).
  private func enteredLiveSession(_ request: Request) throws -> Session<State, Action>? {
    guard let session = session(try authorizedID(request)), session.enter() else { return nil }
    return session
  }

  /// ``authorizedSession(_:)``, with the request counted in (``Session/enter()``): a session
  /// that goes to rest meanwhile is waited for and brought back.
  /// - Throws: 503 `shutting_down` when the session is leaving because the host shuts down.
  func enteredSession(_ request: Request) async throws -> Session<State, Action> {
    while true {
      let session = try await authorizedSession(request)
      if session.enter() { return session }
      guard self.session(session.id) !== session else { throw HTTPError.shuttingDown() }
    }
  }

  /// The id of the session the path names when this build cannot read it, once the request
  /// proved it may use it.
  private func unreadableSession(_ request: Request) throws -> SessionID? {
    guard let id = request.parameters["id"].flatMap(SessionID.init), unreadable.withLock({ $0[id] != nil }) else {
      return nil
    }
    _ = try Authentication.authenticate(request, for: id, with: tokenSigner)
    return id
  }

  /// Waits for the effects of `tasks`, at most ``SessionHostConfiguration/effectsWaitTimeout``.
  private func waitForEffects(_ tasks: [StoreTask]) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for task in tasks { await task.finish() }
      }
      group.addTask { [timeout = configuration.effectsWaitTimeout] in
        try? await Task.sleep(for: timeout)
      }
      await group.next()
      group.cancelAll()
    }
  }

  func jsonResponse(_ json: String, status: Int = 200) -> Response {
    jsonResponse(Array(json.utf8), status: status)
  }

  func jsonResponse(_ json: [UInt8], status: Int = 200) -> Response {
    Response(status: status, headers: ["Content-Type": Response.jsonContentType], body: .bytes(json))
  }

  /// 200 `{"id", "version", "state"}`.
  func stateResponse(id: SessionID, version: Int, state: [UInt8]) -> Response {
    jsonResponse(Array(#"{"id":"\#(id)","version":\#(version),"state":"#.utf8) + state + [UInt8(ascii: "}")])
  }
}

/// `GET /healthz` while serving: 200 `{"status":"ok"}`. Built of array literals of constants,
/// which the compiler lays out once as objects whose reference counts never change: making
/// the answer allocates nothing, and no count is shared by the event loops' cores. The
/// content type is `Response.jsonContentType` spelled out: a global of another module
/// would make the array one built at run time.
private func healthyResponse() -> Response {
  Response(
    status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json; charset=utf-8")]),
    body: .bytes(healthyBody))
}

/// `{"status":"ok"}`, as a literal of its bytes (see ``healthyResponse()``).
private let healthyBody: [UInt8] = [
  0x7B, 0x22, 0x73, 0x74, 0x61, 0x74, 0x75, 0x73, 0x22, 0x3A, 0x22, 0x6F, 0x6B, 0x22, 0x7D,
]
