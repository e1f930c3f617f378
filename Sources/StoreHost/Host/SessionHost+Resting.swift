import Composable
import Foundation
import HTTP

/// Sessions at rest: saved in storage and out of memory, brought back on their next request.
///
/// A session moves through these states:
/// - **live**: in memory, its store running, serving requests and streams;
/// - **at rest**: idle for ``SessionLimits/restAfter`` (no request, no open stream, no
///   running effect), saved with nothing reserved past its version and gone from memory; its
///   token and a stream's `Last-Event-ID` still work, since the next request brings it back
///   at the same version (``liveSession(_:)``);
/// - **ended**: deleted, with its remembered answers, by `DELETE` or after
///   ``SessionLimits/idleTimeout`` without use, whether live or at rest;
/// - **unreadable**: stored by a build this one cannot read; kept unchanged and answered
///   503 `session_unreadable` until a build that reads it serves it.
///
/// A restart is a rest of every live session: the new process serves at once and brings
/// each session back when it is first asked for, or, for the sessions used just before
/// (``bringBackRecentlyActiveSessions()``), in the background.
extension SessionHost {
  /// The live session `id`, brought back from storage if it is at rest.
  /// - Throws: 404 when no such session is stored, 503 `session_unreadable` when this build
  ///   cannot read it, 503 `at_capacity` when memory holds ``SessionLimits/maxSessions``
  ///   sessions and none can rest.
  func liveSession(_ id: SessionID) async throws -> Session<State, Action> {
    while true {
      let move = sessions.withLock { sessions -> Task<SessionMove, Never>? in
        if sessions.live[id] != nil { return nil }
        if let moving = sessions.moving[id] { return moving }
        let bringing = Task { await bringBack(id) }
        sessions.moving[id] = bringing
        return bringing
      }
      guard let move else {
        if let session = session(id) { return session }
        continue
      }
      switch await move.value {
      case .broughtBack, .rested: continue
      case .notFound: throw HTTPError.sessionNotFound()
      case .unreadable: throw HTTPError.sessionUnreadable()
      case .failed(let error): throw error
      }
    }
  }

  /// Reads a session from storage and makes it live at the version it goes on from
  /// (``SessionSnapshot/resumedVersion``), publishing nothing past it until a save reserves
  /// more; sends it ``resumedAction``. Ends the move it runs as.
  private func bringBack(_ id: SessionID) async -> SessionMove {
    let move = await readBack(id)
    sessions.withLock { sessions in
      if case .broughtBack(let session) = move { sessions.live[id] = session }
      sessions.moving[id] = nil
    }
    guard case .broughtBack(let session) = move else { return move.outcome }
    reserveVersions(of: session)
    resume(session)
    metrics.sessionsBroughtBack.add(1, ordering: .relaxed)
    return .broughtBack
  }

  /// What reading a session back found.
  private enum ReadBack {
    case broughtBack(Session<State, Action>)
    case other(SessionMove)

    var outcome: SessionMove {
      switch self {
      case .broughtBack: .broughtBack
      case .other(let move): move
      }
    }
  }

  private func readBack(_ id: SessionID) async -> ReadBack {
    if unreadable.withLock({ $0[id] != nil }) { return .other(.unreadable) }
    let snapshot: SessionSnapshot
    do {
      guard let stored = try await persistence.load(id) else { return .other(.notFound) }
      snapshot = stored
    } catch {
      return .other(.failed(HTTPError.storageUnavailable()))
    }
    // Expired, unless a newer build saved it: a rollback never deletes what it cannot read.
    if Date().timeIntervalSince(snapshot.lastActiveAt) > configuration.limits.idleTimeout.secondsValue,
      snapshot.stateVersion <= SavedState.version(of: State.self)
    {
      try? await persistence.delete(id)
      return .other(.notFound)
    }
    let resumed = snapshot.resumedVersion
    let session: Session<State, Action>
    do {
      session = try self.session(
        restoring: snapshot, reservation: SessionReservation(id: id, version: resumed, reservedVersion: resumed))
    } catch {
      let set = UnreadableSession(snapshot, error: error)
      unreadable.withLock { $0[id] = set }
      configuration.onUnreadableSession?(set)
      return .other(.unreadable)
    }
    do {
      try await makeRoom()
    } catch {
      session.end()
      return .other(.failed(error as? HTTPError ?? HTTPError.atCapacity()))
    }
    return .broughtBack(session)
  }

  /// Reserves the versions a session just brought back may publish, in the background: its
  /// first change waits for this (or for its own save, whichever is durable first). Tried
  /// again until it is stored or the session ends.
  private func reserveVersions(of session: Session<State, Action>) {
    guard session.reservationWindow > 0 else { return }
    let version = session.version
    let reservation = SessionReservation(
      id: session.id, version: version, reservedVersion: version + session.reservationWindow)
    Task {
      while !session.isClosed {
        do {
          try await persistence.reserve([reservation])
          storageHealth.recordSuccess()
          session.raisePublishLimit(to: reservation.reservedVersion)
          return
        } catch {
          storageHealth.recordFailure(error)
          try? await Task.sleep(for: .milliseconds(100))
        }
      }
    }
  }

  /// Puts `session` to rest: out of memory once the requests it is serving are answered and
  /// its state is saved. A request for it meanwhile waits, then brings it back. When its
  /// state cannot be saved, it stays live (with its effects) and is saved once storage works
  /// again: a session leaves memory only with every change it acknowledged stored.
  func rest(_ session: Session<State, Action>) async {
    let resting = sessions.withLock { table -> Task<SessionMove, Never>? in
      guard table.live[session.id] === session, table.moving[session.id] == nil, session.startLeaving() else {
        return nil
      }
      table.live[session.id] = nil
      let resting = Task { [self] in
        await session.waitForRequests()
        do {
          try await session.flush()
        } catch {
          session.stopLeaving()
          sessions.withLock { table in
            table.live[session.id] = session
            table.moving[session.id] = nil
          }
          return SessionMove.broughtBack
        }
        // Idle, so nothing changed since the flush: a failure of the final save loses only
        // its release of the versions reserved past the saved one.
        try? await session.finish()
        inMemoryStorage.removeValues(forSession: session.id.rawValue)
        metrics.sessionsRested.add(1, ordering: .relaxed)
        sessions.withLock { $0.moving[session.id] = nil }
        return SessionMove.rested
      }
      table.moving[session.id] = resting
      return resting
    }
    _ = await resting?.value
  }

  /// Makes room in memory for one more session: when it holds ``SessionLimits/maxSessions``,
  /// puts the least recently used session to rest among those idle for a few seconds (or
  /// ``SessionLimits/restAfter``, when that is shorter); in a cluster, gives it up instead.
  /// - Throws: 503 `at_capacity` when every session in memory is in use (a stream, a
  ///   running effect or a recent request).
  func makeRoom() async throws {
    let idleEnough = min(configuration.limits.restAfter, .seconds(5))
    let (count, candidates) = sessions.withLock { sessions in
      (sessions.live.count, sessions.live.values.filter { $0.isIdle(for: idleEnough) })
    }
    guard count >= configuration.limits.maxSessions else { return }
    guard let oldest = candidates.min(by: { $0.lastActiveInstant < $1.lastActiveInstant }) else {
      throw HTTPError.atCapacity()
    }
    if cluster != nil { await depart(oldest, to: nil) } else { await rest(oldest) }
  }

  /// Brings back, in the background, the stored sessions used within the last
  /// ``SessionLimits/restAfter`` (at most half of ``SessionLimits/maxSessions``): the
  /// sessions a restart interrupted, so their resumed effects (a running timer) go on
  /// without waiting for their user's next request.
  public func bringBackRecentlyActiveSessions() {
    guard cluster == nil else { return }
    let limits = configuration.limits
    Task {
      let now = Date()
      let recent = now.addingTimeInterval(-limits.restAfter.secondsValue)..<now.addingTimeInterval(1)
      guard let ids = try? await persistence.sessions(lastActiveIn: recent, limit: max(1, limits.maxSessions / 2))
      else { return }
      for id in ids { _ = try? await liveSession(id) }
    }
  }

  /// Deletes stored sessions unused for longer than ``SessionLimits/idleTimeout`` that are
  /// not in memory, a bounded batch per call. Sessions saved by a newer build (a later state
  /// version) and those this build found it cannot read are kept: a rollback that lasts
  /// longer than the idle timeout must not delete the newer build's sessions.
  func endExpiredRestingSessions() async {
    let cutoff = Date().addingTimeInterval(-configuration.limits.idleTimeout.secondsValue)
    guard
      let expired = try? await persistence.sessions(
        lastActiveIn: .distantPast..<cutoff, savedThroughStateVersion: SavedState.version(of: State.self), limit: 1000)
    else {
      return
    }
    let unreadable = unreadable.withLock { Set($0.keys) }
    for id in expired where !unreadable.contains(id) && sessions.withLock({ $0.live[id] == nil && $0.moving[id] == nil }) {
      try? await persistence.delete(id)
      metrics.sessionsEnded.add(1, ordering: .relaxed)
    }
  }
}
