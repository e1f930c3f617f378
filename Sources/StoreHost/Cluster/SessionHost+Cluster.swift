import Composable
import Foundation
import HTTP

/// How a session host behaves when it shares a PostgreSQL database with other processes.
extension SessionHost {
  /// Where a request for one session is served.
  enum Placement {
    /// Here: this process owns the session.
    case local(Session<State, Action>)
    /// By the owner, which already answered.
    case forwarded(Response)
  }

  /// Registers `address` (`http://host:port`, reachable by the other processes) as where
  /// this process serves forwarded requests, and starts renewing its lease every
  /// ``SessionLeases/renewalInterval``; sessions it loses are dropped here without being
  /// deleted. Does nothing without a cluster.
  public func joinCluster(advertising address: String) async throws {
    guard let cluster else { return }
    try await cluster.join(advertising: address)
    let task = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: SessionLeases.renewalInterval)
        guard let self else { return }
        for id in await cluster.renewLeases() {
          if let session = session(id) { drop(session) }
        }
        await adoptOrphans()
      }
    }
    renewalTask.withLock { $0 = task }
  }

  /// Stops renewing, and gives up every lease so the other processes take over at once.
  func leaveCluster() async {
    guard let cluster else { return }
    renewalTask.withLock { $0?.cancel() }
    for session in allSessions { drop(session) }
    await cluster.leave()
  }

  /// The session the request names, once it proved it may use it: here if this process owns
  /// it or can take it over, else answered by its owner.
  ///
  /// A request the owner could not be sent is retried until the owner's lease runs out and
  /// the session can be taken over (at most ``SessionCluster/takeoverWait``), so clients see a
  /// slower answer rather than an error when a process dies. A request whose owner died
  /// after receiving it is never retried (it may have been applied): it answers
  /// ``HTTPError/ownerLost()``.
  func placeSession(_ request: Request) async throws -> Placement {
    guard let cluster else { return .local(try await authorizedSession(request)) }
    guard let id = request.parameters["id"].flatMap(SessionID.init) else { throw HTTPError.sessionNotFound() }
    let credential = try Authentication.authenticate(request, for: id, with: tokenSigner)
    let deadline = ContinuousClock.now + cluster.takeoverWait
    // A draining owner releases within milliseconds, a dead one when its lease runs out:
    // retry soon at first, then less often.
    var retryDelay = Duration.milliseconds(5)
    while true {
      if let session = session(id) {
        if cluster.holdsLease(id) { return .local(session) }
        drop(session)
      }
      let start = ContinuousClock.now
      let acquisition: SessionLeases.Acquisition
      do {
        acquisition = try await cluster.leases.acquire(
          id, stateVersion: SavedState.version(of: State.self), reservationWindow: reservationWindow)
      } catch {
        throw HTTPError.databaseUnavailable()
      }
      switch acquisition {
      case .acquired(let snapshot):
        return .local(try await adopt(snapshot, in: cluster, at: start))
      case .notFound:
        throw HTTPError.sessionNotFound()
      case .savedByNewerBuild:
        throw HTTPError.sessionUnreadable()
      case .ownedElsewhere(let address):
        guard request.headers[RequestForwarder.forwardedHeader] == nil else { throw HTTPError.sessionMoved() }
        if let address {
          do {
            let response = try await cluster.forwarder.forward(request, token: credential.token, to: address)
            metrics.requestsForwarded.add(1, ordering: .relaxed)
            if !Self.isMoved(response) { return .forwarded(response) }
          } catch .outcomeUnknown {
            throw HTTPError.ownerLost()
          } catch .notDelivered {
            // The owner is gone: wait for its lease to run out, then take the session over.
          }
        }
        guard ContinuousClock.now < deadline else { throw HTTPError.ownerUnavailable() }
        try await Task.sleep(for: retryDelay)
        retryDelay = min(retryDelay * 2, .milliseconds(100))
      }
    }
  }

  /// The error for a strict save that failed. In a cluster the session is dropped here, so
  /// the next request takes it over again from its last durable state: the change that
  /// could not be saved is discarded, never half-kept.
  func notDurable(_ session: Session<State, Action>) -> HTTPError {
    guard cluster != nil else { return HTTPError.notDurable() }
    drop(session)
    return HTTPError.databaseUnavailable()
  }

  // MARK: Ownership

  /// Stores a new session at version 0, owned by this process.
  func register(_ session: Session<State, Action>, in cluster: SessionCluster) async throws {
    let start = ContinuousClock.now
    session.saveLatest()
    do {
      try await session.waitUntilDurable(0)
    } catch {
      drop(session)
      throw HTTPError.databaseUnavailable()
    }
    cluster.didAcquire(session.id, at: start)
  }

  /// Starts serving a session just taken over, at its last durable state, relabelled and
  /// reserved by the takeover (see ``SessionLeases/acquire(_:stateVersion:reservationWindow:)``). When a
  /// concurrent request took it over first, that session is kept. A session this build
  /// cannot read is given up unchanged, for a process that can, and answers 503.
  private func adopt(
    _ snapshot: SessionSnapshot, in cluster: SessionCluster, at start: ContinuousClock.Instant
  ) async throws -> Session<State, Action> {
    let session: Session<State, Action>
    do {
      session = try restoredSession(from: snapshot)
    } catch {
      try? await cluster.leases.release(snapshot.id)
      throw HTTPError.sessionUnreadable()
    }
    let kept = adoptSession(session)
    if kept !== session {
      session.end()
    } else {
      resume(session)
    }
    cluster.didAcquire(snapshot.id, at: start)
    return kept
  }

  /// A session at a snapshot a takeover relabelled and reserved.
  private func restoredSession(from snapshot: SessionSnapshot) throws -> Session<State, Action> {
    try session(
      restoring: snapshot,
      reservation: SessionReservation(id: snapshot.id, version: snapshot.version, reservedVersion: snapshot.reservedVersion))
  }

  /// Versions a takeover reserves for the session it takes (see ``Session/reservationWindow``).
  var reservationWindow: Int {
    configuration.durability == .strict ? 0 : Session<State, Action>.fastReservationWindow
  }

  /// Forgets a session here without deleting it: another process owns it now, or will. Its
  /// session-scoped in-memory shared values go too: they cannot follow it to its next owner,
  /// and must not come back stale if it returns here.
  func drop(_ session: Session<State, Action>) {
    guard forgetSession(session) else { return }
    session.end()
    inMemoryStorage.removeValues(forSession: session.id.rawValue)
    cluster?.didRelease(session.id)
  }

  /// Hands `session` over to the process that forwards its requests, once this answer is
  /// out, when a load balancer routes the session to that process (see
  /// ``SessionCluster/noteServed(_:forwardedBy:)``): it takes the session over on its next
  /// request, and later actions skip the hop.
  func handOverIfRoutedElsewhere(_ session: Session<State, Action>, after request: Request) {
    guard let cluster,
      let successor = cluster.noteServed(session.id, forwardedBy: request.headers[RequestForwarder.forwardedHeader])
    else { return }
    Task {
      guard await retire(session) else { return }
      try? await cluster.leases.handOver(session.id, to: successor)
    }
  }

  /// Takes over, a batch at a time, the recently active sessions that no live process
  /// serves (their owner died or drained): each is rebuilt from its durable state and sent
  /// the host's resumed action, so its effects (a running timer) go on without waiting for
  /// its user's next request.
  func adoptOrphans() async {
    guard let cluster else { return }
    let start = ContinuousClock.now
    guard
      let orphans = try? await cluster.leases.adoptOrphans(
        limit: Self.orphansPerRound, activeWithin: configuration.limits.idleTimeout,
        stateVersion: SavedState.version(of: State.self), reservationWindow: reservationWindow)
    else { return }
    for snapshot in orphans {
      guard session(snapshot.id) == nil else { continue }
      guard let session = try? restoredSession(from: snapshot) else {
        try? await cluster.leases.release(snapshot.id)
        continue
      }
      let kept = adoptSession(session)
      if kept !== session {
        session.end()
      } else {
        resume(session)
      }
      cluster.didAcquire(snapshot.id, at: start)
    }
  }

  /// Orphaned sessions taken over per lease renewal.
  private static var orphansPerRound: Int { 64 }

  /// Saves an idle session's final state and gives up its lease.
  func release(_ session: Session<State, Action>) async {
    guard await retire(session) else { return }
    try? await cluster?.leases.release(session.id)
  }

  /// Forgets a session here after saving its final state, with nothing reserved past it,
  /// so the next owner goes on from exactly its version.
  /// - Returns: Whether it was live here.
  private func retire(_ session: Session<State, Action>) async -> Bool {
    guard forgetSession(session) else { return false }
    try? await session.finish()
    inMemoryStorage.removeValues(forSession: session.id.rawValue)
    cluster?.didRelease(session.id)
    return true
  }

  /// Whether the owner answered that the session left it meanwhile.
  private static func isMoved(_ response: Response) -> Bool {
    guard response.status == 503, case .bytes(let body) = response.body else { return false }
    return String(decoding: body, as: UTF8.self).contains(#""session_moved""#)
  }
}
