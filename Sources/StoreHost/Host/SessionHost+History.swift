@_spi(Hosting) import Composable
import Foundation
import HTTP

/// The routes of a session's history (see ``SessionHistory``): reading it, a state of it, a
/// test rebuilding it, a fork from one of its versions, a replay through this build, and
/// clearing it. Each takes the session's own credentials, runs where the session lives, and
/// counts as one action against the session's rate limit.
extension SessionHost {
  func addHistoryRoutes(to router: inout Router) {
    router.get("/api/sessions/{id}/history", runsOn: .sharedPool) { [self] in try await history($0) }
    router.delete("/api/sessions/{id}/history") { [self] in try await clearHistory($0) }
    router.get("/api/sessions/{id}/history/test.swift", runsOn: .sharedPool) { [self] in try await exportTest($0) }
    router.get("/api/sessions/{id}/history/{version}", runsOn: .sharedPool) { [self] in try await historyState($0) }
    router.post("/api/sessions/{id}/fork", runsOn: .sharedPool) { [self] in try await fork($0) }
    router.post("/api/sessions/{id}/replay", runsOn: .sharedPool) { [self] in try await replay($0) }
  }

  /// Steps served by one `GET .../history` at most, and by default.
  static var maxHistoryPage: Int { 500 }
  static var defaultHistoryPage: Int { 100 }

  // MARK: Handlers

  /// `GET /api/sessions/{id}/history?from=V&limit=N`: 200 `{"id", "capacity", "stateVersion",
  /// "first", "last", "steps", "next"}`, the steps at or after version `from`, oldest first.
  private func history(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, history in
      try historyPage(request, of: session, capacity: history.capacity, steps: try await records(of: session))
    }
  }

  private func historyPage(
    _ request: Request, of session: Session<State, Action>, capacity: Int, steps: [HistoryRecord]
  ) throws -> Response {
    let from = try request.queryItem("from").map { try number("from", $0) }
    let limit = try request.queryItem("limit").map { min(max(try number("limit", $0), 1), Self.maxHistoryPage) }
    let start = from.flatMap { from in steps.firstIndex { $0.version >= from } } ?? (from == nil ? 0 : steps.count)
    var end = min(start + (limit ?? Self.defaultHistoryPage), steps.count)
    // A page never splits the steps of one version, so `next` (a version) can start the next.
    while end > start, end < steps.count, steps[end].version == steps[end - 1].version { end += 1 }
    let stateVersion = SavedState.version(of: State.self)
    var json = Array(#"{"id":"\#(session.id)","capacity":\#(capacity),"stateVersion":\#(stateVersion),"#.utf8)
    json += Array(#""first":\#(steps.first.map { String($0.version) } ?? "null"),"#.utf8)
    json += Array(#""last":\#(steps.last.map { String($0.version) } ?? "null"),"steps":["#.utf8)
    for (offset, step) in steps[start..<end].enumerated() {
      if offset > 0 { json.append(UInt8(ascii: ",")) }
      json += step.json
    }
    json += Array(#"],"next":\#(end < steps.count ? String(steps[end].version) : "null")}"#.utf8)
    return jsonResponse(json)
  }

  /// `GET /api/sessions/{id}/history/{version}`: 200 `{"id", "version", "state"}`, the state
  /// after the last step at that version, in this build's state version.
  private func historyState(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, _ in
      let version = try number("version", request.parameters["version"] ?? "")
      let state = try keptState(at: version, in: try await records(of: session))
      return stateResponse(id: session.id, version: version, state: state.serializedBytes())
    }
  }

  /// `GET /api/sessions/{id}/history/test.swift`: the Swift Testing test that rebuilds the
  /// session (see ``HistoryTestExport``), as a download.
  private func exportTest(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, _ in
      let source = try Self.testSource(
        of: session.id, records: try await records(of: session), featureTypeName: featureTypeName,
        origin: "GET /api/sessions/\(session.id)/history/test.swift", dependencies: replayDependencies(of: session.id))
      var response = Response(status: 200, body: .bytes(Array(source.utf8)))
      response.headers.set("Content-Type", "text/x-swift; charset=utf-8")
      response.headers.set("Content-Disposition", #"attachment; filename="\#(Self.testFileName(of: session.id))""#)
      return response
    }
  }

  /// `POST /api/sessions/{id}/fork` with `{"version": v}`: a new session starting from the
  /// state at that version, answered as `POST /api/sessions` is (201 and the new session's
  /// cookie). The session forked is left as it is.
  private func fork(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, _ in
      let version = try request.decode(ForkRequest.self).version
      let json = try keptState(at: version, in: try await records(of: session))
      let state: State
      do {
        state = try Self.readReplayState(json, dependencies: replayDependencies(of: session.id)).state
      } catch {
        throw HTTPError.historyUnreadable("the state at version \(version) does not decode: \(error)")
      }
      return try createdSessionResponse(try await createSession { self.liveState(state) })
    }
  }

  /// `POST /api/sessions/{id}/replay`: runs the recorded actions through this build's
  /// reducer in a new session and answers as `POST /api/sessions` does, with a `replay`
  /// report: the first version whose state differs from the recorded one, if any.
  private func replay(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, _ in
      let dependencies = replayDependencies(of: session.id)
      let script = try Self.script(of: try await records(of: session), dependencies: dependencies)
      let outcome = HistoryReplay(feature: feature, dependencies: dependencies, write: Self.written).run(script)
      let session = try await createSession { self.liveState(outcome.state) }
      return try createdSessionResponse(session, adding: Array(#""replay":"#.utf8) + Self.report(of: outcome, script))
    }
  }

  /// `DELETE /api/sessions/{id}/history`: 204; the history starts again at the current
  /// version, and what was saved of it is deleted with the next save.
  private func clearHistory(_ request: Request) async throws -> Response {
    try await withHistory(request) { session, _ in
      session.clearHistory()
      return Response(status: 204)
    }
  }

  // MARK: Reading

  /// Answers `request` with `body`, given the session it names and its history, where the
  /// session lives (in a cluster, its owner answers), once the session's rate limit lets
  /// one more action through.
  /// - Throws: 404 `history_off` when the host keeps none, 429 `rate_limited`.
  private func withHistory(
    _ request: Request,
    _ body: (Session<State, Action>, HistoryRecorder<State, Action>) async throws -> Response
  ) async throws -> Response {
    let session: Session<State, Action>
    switch try await placeSession(request, key: nil) {
    case .local(let local, _): session = local
    case .forwarded(let response): return response
    }
    defer { session.exit() }
    guard let history = session.history else { throw HTTPError.historyOff() }
    if case let .limited(retryAfter) = session.admit(actions: 1) {
      throw HTTPError.rateLimited(
        retryAfter: retryAfter,
        "This session's history routes count against its rate limit "
          + "(\(Int(configuration.limits.actionsPerSecond)) actions per second); slow down.")
    }
    return try await body(session, history)
  }

  private func number(_ name: String, _ text: String) throws -> Int {
    guard let number = Int(text), number >= 0 else { throw HTTPError.invalidNumber(name, text) }
    return number
  }

  /// The kept steps of `session`'s history, oldest first: those memory holds, and those
  /// only its persistence does.
  func records(of session: Session<State, Action>) async throws -> [HistoryRecord] {
    guard let history = session.history else { return [] }
    // Memory first: a step not there any more was saved before, so the read below has it.
    let memory = history.inMemory
    var records: [Int: HistoryRecord] = [:]
    if !memory.isComplete {
      let stored: [HistoryRecord]
      do {
        stored = try await persistence.history(of: session.id)
      } catch {
        throw HTTPError.historyUnavailable()
      }
      for record in stored where record.step >= memory.firstKeptStep { records[record.step] = record }
    }
    for step in memory.steps { records[step.step] = step.record }
    return records.values.sorted { $0.step < $1.step }
  }

  /// The state after the last kept step at `version`, in this build's state version.
  private func keptState(at version: Int, in records: [HistoryRecord]) throws -> JSONValue {
    guard let state = RecordedHistory.state(at: version, in: records, as: State.self) else {
      throw HTTPError.versionNotKept(version, kept: records.first.map { $0.version...records.last!.version })
    }
    guard state != .null else { throw HTTPError.historyUnreadable("the state at version \(version) cannot be rebuilt.") }
    return state
  }

  /// The Swift Testing test that rebuilds a saved session from the history saved with it
  /// (what `GET /api/sessions/{id}/history/test.swift` serves), its feature run by `feature`:
  /// for a command that reads the saved sessions, such as `storehost history export-test`.
  ///
  /// - Parameters:
  ///   - origin: Where the test says it was exported from.
  ///   - prepareDependencies: The dependencies states are decoded with, as the host's.
  public static func exportTest<Feature: Reducer<State, Action>>(
    of snapshot: SessionSnapshot, feature: Feature.Type, origin: String,
    withDependencies prepareDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) throws -> String {
    try testSource(
      of: snapshot.id, records: snapshot.history, featureTypeName: String(reflecting: feature), origin: origin,
      dependencies: { values in
        prepareDependencies(&values)
        values.keepSharedValuesApart(session: snapshot.id)
      })
  }

  /// The replay script of a history's `records`, its states decoded with `dependencies`.
  /// - Throws: 409 `history_unreadable` when none of its kept states decodes.
  static func script(
    of records: [HistoryRecord], dependencies: @escaping @Sendable (inout DependencyValues) -> Void
  ) throws -> HistoryScript<State> {
    do {
      return try HistoryScript(RecordedHistory(records, as: State.self)) { try readReplayState($0, dependencies: dependencies) }
    } catch {
      throw HTTPError.historyUnreadable("none of its kept states decodes.")
    }
  }

  /// The test rebuilding a session from its history's `records`, exported by `origin`.
  private static func testSource(
    of id: SessionID, records: [HistoryRecord], featureTypeName: String, origin: String,
    dependencies: @escaping @Sendable (inout DependencyValues) -> Void
  ) throws -> String {
    HistoryTestExport(
      sessionID: id, featureTypeName: featureTypeName, stateTypeName: String(reflecting: State.self),
      stateVersion: SavedState.version(of: State.self), origin: origin
    ).source(of: try script(of: records, dependencies: dependencies))
  }

  /// The name an exported test file is given.
  static func testFileName(of id: SessionID) -> String {
    "ReplaySession_\(id.rawValue.replacingOccurrences(of: "-", with: "_"))Tests.swift"
  }

  /// Decodes a state's JSON (in this build's state version) for a replay, with
  /// `dependencies`, and the JSON this build writes for it.
  static func readReplayState(
    _ json: JSONValue, dependencies: (inout DependencyValues) -> Void
  ) throws -> (state: State, json: JSONValue) {
    let state = try withDependencies(dependencies) { try json.decode(as: State.self) }
    return (state, try written(state))
  }

  static func written(_ state: State) throws -> JSONValue {
    try JSONValue(parsing: try JSONEncoding.encode(state))
  }

  /// The host's dependencies for replaying the session `id`, with shared values kept apart:
  /// a replay (or the decoding of a recorded state) never changes the values every session
  /// shares.
  private func replayDependencies(of id: SessionID) -> @Sendable (inout DependencyValues) -> Void {
    { [prepareDependencies] values in
      prepareDependencies(&values)
      values.keepSharedValuesApart(session: id)
    }
  }

  /// `state`, decoded from a history, with the keyed shared values of a fresh initial state
  /// in place of its detached copies: a new session's state, made with its dependencies.
  private func liveState(_ state: State) -> State {
    var state = state
    reattachSharedValues(&state, from: makeInitialState())
    return state
  }

  private static func report(of outcome: HistoryReplay<State, Action>.Outcome, _ script: HistoryScript<State>)
    -> [UInt8]
  {
    var json = Array(
      #"{"from":\#(script.startVersion),"to":\#(outcome.version),"steps":\#(outcome.stepsRun),"actions":\#(outcome.actionsRun),"skippedSteps":\#(script.skippedSteps),"#
        .utf8)
    json += Array(#""issues":"#.utf8) + ((try? JSONEncoding.encode(outcome.issues)) ?? Array("[]".utf8))
    json += Array(#","firstDifference":"#.utf8)
    if let difference = outcome.firstDifference {
      json += Array(#"{"version":\#(difference.version),"actions":"#.utf8)
      json += JSONValue.array(difference.actions).serializedBytes()
      json += Array(#","patch":"#.utf8) + ((try? JSONEncoding.encode(difference.patch)) ?? Array("[]".utf8))
      if let error = difference.error {
        json += Array(#","error":"#.utf8) + ((try? JSONEncoding.encode(error)) ?? Array("null".utf8))
      }
      json.append(UInt8(ascii: "}"))
    } else {
      json += Array("null".utf8)
    }
    json.append(UInt8(ascii: "}"))
    return json
  }
}

/// The body of `POST /api/sessions/{id}/fork`.
private struct ForkRequest: Decodable {
  let version: Int
}
