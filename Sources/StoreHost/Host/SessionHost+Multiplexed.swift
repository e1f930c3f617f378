import Foundation
import HTTP

/// Several sessions' events on one stream: what lets every tab of a browser share one
/// connection (browsers open at most six HTTP/1.1 connections per origin). A session joins a
/// stream by a watch ticket, which only a request holding the session's token gets, so a
/// stream shows nothing its client could not watch one session at a time.
extension SessionHost {
  /// `POST /api/sessions/{id}/tickets`: 200 `{"ticket", "expiresIn"}`, a watch ticket for the
  /// session that `GET /api/events` accepts for ``SessionHostConfiguration/watchTicketLifetime``.
  func issueTicket(_ request: Request) async throws -> Response {
    guard let id = request.parameters["id"].flatMap(SessionID.init) else { throw HTTPError.sessionNotFound() }
    _ = try Authentication.authenticate(request, for: id, with: tokenSigner)
    guard try await sessionExists(id) else { throw HTTPError.sessionNotFound() }
    let lifetime = configuration.watchTicketLifetime.secondsValue
    let ticket = tokenSigner.issueWatchTicket(for: id, expiresAt: Date(timeIntervalSinceNow: lifetime))
    var response = jsonResponse(#"{"ticket":"\#(ticket)","expiresIn":\#(Int(lifetime))}"#)
    response.headers.set("Cache-Control", "no-store")
    return response
  }

  /// `GET /api/events?watch=<ticket>[.<version>]&...`: the events of up to
  /// ``MultiplexedEventsRequest/maxSessions`` sessions on one stream, each event's data
  /// naming its session (`"id"`). A session that cannot be watched (a bad or expired ticket,
  /// ended, at its stream limit) gets an `event: dropped` and the others go on.
  func multiplexedEvents(_ request: Request) async throws -> Response {
    guard !request.isDraining else { throw HTTPError.shuttingDown() }
    let query = try MultiplexedEventsRequest(request)
    let watches = try checkedWatches(query)
    if query.presence { startReportingPresence() }
    let retry = Int(configuration.eventStreamRetry.secondsValue * 1000)
    return .eventStream(onOpen: { [self] stream in
      stream.retry(milliseconds: retry)
      let multiplexed = MultiplexedStream(stream)
      Task { [self] in
        for (slot, watch) in watches.enumerated() {
          guard !stream.isClosed else { return }
          await start(watch, slot: slot, on: multiplexed, query: query)
        }
      }
    })
  }

  /// A session named by a ticket, and why it cannot be watched, if it cannot.
  private struct CheckedWatch: Sendable {
    let id: SessionID
    let lastEventID: Int?
    let refusal: HTTPError?
  }

  /// Checks every ticket of `query`; throws 400 for one that is not a ticket at all or a
  /// session named twice.
  private func checkedWatches(_ query: MultiplexedEventsRequest) throws(HTTPError) -> [CheckedWatch] {
    var watches: [CheckedWatch] = []
    var seen = Set<SessionID>()
    let now = Date()
    for watch in query.watches {
      let id: SessionID
      var refusal: HTTPError?
      switch tokenSigner.checkWatchTicket(watch.ticket, now: now) {
      case .valid(let valid): id = valid
      case .expired(let expired): (id, refusal) = (expired, .invalidTicket(expired: true))
      case .forged(let claimed): (id, refusal) = (claimed, .invalidTicket(expired: false))
      case .malformed:
        throw .invalidWatch("'\(watch.ticket.prefix(120))' is not a watch ticket (POST /api/sessions/{id}/tickets).")
      }
      guard seen.insert(id).inserted else { throw .invalidWatch("The session \(id) is named twice.") }
      watches.append(CheckedWatch(id: id, lastEventID: watch.lastEventID, refusal: refusal))
    }
    return watches
  }

  /// Starts one session's watch on a stream of several: in a cluster from the session's
  /// announcements, else here, bringing the session back from storage if it rests there.
  private func start(
    _ watch: CheckedWatch, slot: Int, on multiplexed: MultiplexedStream, query: MultiplexedEventsRequest
  ) async {
    if let refusal = watch.refusal { return multiplexed.drop(watch.id, slot: slot, because: refusal) }
    let sink = multiplexed.sink(slot: slot)
    let options = options(of: query, for: watch)
    let onEnd: @Sendable () -> Void = { multiplexed.drop(watch.id, slot: slot, because: .sessionNotFound()) }
    let result: Result<StopWatching, HTTPError>
    if let followers {
      result = await watchFollowed(watch.id, by: followers, sink: sink, options: options, onEnd: onEnd)
    } else {
      do {
        result = self.watch(try await liveSession(watch.id), sink: sink, options: options, onEnd: onEnd)
      } catch {
        return multiplexed.drop(watch.id, slot: slot, because: error as? HTTPError ?? .databaseUnavailable())
      }
    }
    switch result {
    case .success(let stop): multiplexed.started(watch.id, stop: stop)
    case .failure(let refusal): multiplexed.drop(watch.id, slot: slot, because: refusal)
    }
  }

  private func options(of query: MultiplexedEventsRequest, for watch: CheckedWatch) -> WatchOptions {
    WatchOptions(
      patches: query.patches, log: query.log, presence: query.presence, framing: .multiplexed(watch.id),
      lastEventID: watch.lastEventID)
  }

  /// Whether session `id` exists: live here or resting in storage, or in a cluster, stored.
  private func sessionExists(_ id: SessionID) async throws -> Bool {
    guard let cluster else {
      do {
        _ = try await liveSession(id)
        return true
      } catch let error as HTTPError where error.status == 404 {
        return false
      }
    }
    if let session = session(id), cluster.isServing(id, epoch: session.epoch) { return true }
    do {
      return try await cluster.durableSnapshot(id) != nil
    } catch {
      throw HTTPError.databaseUnavailable()
    }
  }
}
