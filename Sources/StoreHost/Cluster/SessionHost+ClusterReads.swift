import Foundation
import HTTP

/// The reads a clustered process serves itself, whoever owns the session: its state and its
/// event stream, both from the database and its announcements.
extension SessionHost {
  /// `GET /api/sessions/{id}` in a cluster: the local state when owned here, else the latest
  /// durable state from the database.
  func clusteredState(_ request: Request) async throws -> Response {
    guard let cluster, let id = request.parameters["id"].flatMap(SessionID.init) else {
      throw HTTPError.sessionNotFound()
    }
    _ = try Authentication.authenticate(request, for: id, with: tokenSigner)
    if let session = session(id), cluster.isServing(id, epoch: session.epoch) {
      session.touch()
      let (state, version) = try session.currentJSON()
      return stateResponse(id: id, version: version, state: state)
    }
    let snapshot: SessionSnapshot?
    do {
      snapshot = try await cluster.durableSnapshot(id)
    } catch {
      throw HTTPError.databaseUnavailable()
    }
    guard let snapshot else { throw HTTPError.sessionNotFound() }
    return stateResponse(id: id, version: snapshot.version, state: [UInt8](snapshot.state))
  }

  /// `GET /api/sessions/{id}/events` in a cluster: every durable version, from whichever
  /// process owns the session, and with `?log=1` its owner's actions (see ``SessionFollowers``).
  func clusteredEvents(_ request: Request) async throws -> Response {
    guard let followers, let id = request.parameters["id"].flatMap(SessionID.init) else {
      throw HTTPError.sessionNotFound()
    }
    _ = try Authentication.authenticate(request, for: id, with: tokenSigner)
    // Held until the stream connects, or dropped with an answer that never opens.
    guard let hold = try await followers.prepare(id) else { throw HTTPError.sessionNotFound() }
    guard followers.clientCount(id) < configuration.limits.maxEventStreamsPerSession else {
      throw tooManyStreams(here: true)
    }
    let options = EventStreamRequest(request)
    let retry = Int(configuration.eventStreamRetry.secondsValue * 1000)
    if options.presence { startReportingPresence() }
    return .eventStream(onOpen: { [self] stream in
      stream.retry(milliseconds: retry)
      Task { [self] in
        defer { withExtendedLifetime(hold) {} }
        switch await watchFollowed(id, by: followers, sink: stream, options: options.watch, onEnd: { stream.finish() }) {
        case .success(let stop): stream.onClose(stop)
        case .failure: stream.finish()
        }
      }
    })
  }
}
