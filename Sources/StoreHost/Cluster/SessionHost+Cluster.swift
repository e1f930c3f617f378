import Composable
import Foundation
import HTTP

/// How a session host behaves when it shares its sessions with other processes (see
/// ``SessionCluster``).
extension SessionHost {
  /// Where a request for one session is served.
  enum Placement {
    /// Here: this process owns the session and counted the request in (``Session/enter()``);
    /// the caller calls ``Session/exit()`` once it answered. `key` is the `Idempotency-Key`
    /// to run it with: the client's, or the one made for a forward that may have reached
    /// the former owner, so the request is applied at most once either way.
    case local(Session<State, Action>, key: String?)
    /// By the owner, which already answered.
    case forwarded(Response)
  }

  /// Registers `address` (`http://host:port`, reachable by the other processes) as where
  /// this process serves forwarded requests, and starts renewing its lease every
  /// ``SessionCluster/renewalInterval``: sessions found lost are dropped here without being
  /// deleted, and once a second the recently active sessions nobody serves are taken over.
  /// Does nothing without a cluster.
  public func joinCluster(advertising address: String) async throws {
    guard let cluster, let followers else { return }
    try await cluster.join(advertising: address, announcements: followers)
    let task = Task { [weak self] in
      var lastAdoption = ContinuousClock.now
      while !Task.isCancelled {
        try? await Task.sleep(for: cluster.renewalInterval)
        guard let self else { return }
        for id in await cluster.renew() {
          if let session = session(id) { abandon(session) }
        }
        // The lease is a write every process makes: whether it holds tells whether the
        // database takes writes, also while no session saves.
        if cluster.holdsLease { storageHealth.recordSuccess() } else { storageHealth.recordFailure(LeaseNotRenewed()) }
        if ContinuousClock.now - lastAdoption >= .seconds(1) {
          lastAdoption = .now
          await adoptOrphans()
        }
      }
    }
    renewalTask.withLock { $0 = task }
  }

  /// Stops renewing, and gives up every session (each saved already by ``shutdown()``) so
  /// the other processes take over at once.
  func leaveCluster() async {
    guard let cluster else { return }
    renewalTask.withLock { $0?.cancel() }
    for session in allSessions where forgetSession(session) { session.end() }
    await cluster.leave()
    forwarder?.stop()
  }

  /// The session the request names, once it proved it may use it: here if this process owns
  /// it (verified in the database when a pause or a lost connection may have cost it the
  /// session) or can take it over, else answered by its owner.
  ///
  /// A session leaving this process (handed over, released) is waited for, then found
  /// where it went. A request that cannot reach the owner is retried until the owner's lease
  /// runs out and the session can be taken over; one the owner does not answer within a
  /// second is given up once the owner's lease ran out, and run here with the same
  /// `Idempotency-Key` (every forwarded request carries one), so it is applied once either
  /// way. The whole wait is bounded: a request that may have been applied then answers 503
  /// `outcome_unknown`, one that was not, 503 `owner_unavailable`.
  func placeSession(_ request: Request, key: String?) async throws -> Placement {
    guard let cluster else { return .local(try await enteredSession(request), key: key) }
    guard let id = request.parameters["id"].flatMap(SessionID.init) else { throw HTTPError.sessionNotFound() }
    let credential = try Authentication.authenticate(request, for: id, with: tokenSigner)
    let isForwarded = forwardingOrigin(of: request) != nil
    let forwardKey = key ?? IdempotencyKey.generated()
    let deadline = ContinuousClock.now + cluster.leaseDuration + Self.placementMargin
    var mayHaveApplied = false
    // A leaving session moves within milliseconds, a dead owner's when its lease runs out:
    // retry soon at first, then less often.
    var retryDelay = Duration.milliseconds(5)
    while true {
      if let session = session(id) {
        if cluster.isServing(id, epoch: session.epoch) {
          if session.enter() { return .local(session, key: mayHaveApplied ? forwardKey : key) }
        } else if !session.isLeaving {
          try await verify(session, in: cluster)
          continue
        }
      } else {
        switch try await acquire(id, in: cluster) {
        case .acquired(let snapshot):
          try adopt(snapshot, in: cluster)
          continue
        case .notFound:
          throw HTTPError.sessionNotFound()
        case .savedByNewerBuild:
          throw HTTPError.sessionUnreadable()
        case .ownedElsewhere(let owner, let address):
          guard !isForwarded else { throw HTTPError.sessionMoved() }
          if let address {
            switch try await forward(request, token: credential.token, key: forwardKey, to: address, owner: owner, id: id) {
            case .answered(let response):
              if !Self.isRetryable(response) { return .forwarded(response) }
              mayHaveApplied = mayHaveApplied || Self.isOutcomeUnknown(response)
              continue
            case .ownerGone(let applied):
              mayHaveApplied = mayHaveApplied || applied
              continue
            case .notDelivered:
              break
            }
          }
        }
      }
      guard ContinuousClock.now < deadline else {
        throw mayHaveApplied ? HTTPError.outcomeUnknown() : HTTPError.ownerUnavailable()
      }
      try await Task.sleep(for: retryDelay)
      retryDelay = min(retryDelay * 2, .milliseconds(100))
    }
  }

  /// How much longer than a lease a request may wait for its session to be served.
  private static var placementMargin: Duration { .seconds(2) }

  /// Checks in the database that this process still owns `session`; drops it here if not.
  private func verify(_ session: Session<State, Action>, in cluster: any SessionCluster) async throws {
    let owned: Bool
    do {
      owned = try await cluster.verify(session.id, epoch: session.epoch)
    } catch {
      throw HTTPError.databaseUnavailable()
    }
    if !owned { abandon(session) }
  }

  private func acquire(_ id: SessionID, in cluster: any SessionCluster) async throws -> ClusterAcquisition {
    do {
      return try await cluster.acquire(
        id, stateVersion: SavedState.version(of: State.self), reservationWindow: reservationWindow)
    } catch {
      throw HTTPError.databaseUnavailable()
    }
  }

  // MARK: Forwarding

  /// How a forwarded request ended.
  private enum Forwarding {
    /// The owner answered.
    case answered(Response)
    /// The owner could not be reached: nothing was delivered.
    case notDelivered
    /// The owner died or stopped answering, and its lease ran out (the session may be taken
    /// over now); `mayHaveApplied` when the request had reached it.
    case ownerGone(mayHaveApplied: Bool)
  }

  /// Sends the request to its session's owner, with `key` as its `Idempotency-Key`. While no
  /// answer comes (after ``ForwardExchange/patience``, then every
  /// ``ForwardExchange/checkInterval``), asks the database whether the owner still holds its
  /// lease; once it does not (it hangs, or died), the session is taken over
  /// here and the forward given up, and the caller runs the request again with the same key.
  private func forward(
    _ request: Request, token: String, key: String, to address: String, owner: String, id: SessionID
  ) async throws -> Forwarding {
    guard let cluster, let forwarder else { return .notDelivered }
    let exchange: ForwardExchange
    do {
      exchange = try forwarder.start(request, token: token, key: key, to: address)
    } catch .busy {
      throw HTTPError.forwardingBusy()
    } catch {
      return .notDelivered
    }
    var wait = ForwardExchange.patience
    while true {
      defer { wait = ForwardExchange.checkInterval }
      if let outcome = await exchange.answer(within: wait) {
        switch outcome {
        case .success(let response):
          metrics.requestsForwarded.add(1, ordering: .relaxed)
          return .answered(response)
        case .failure(.notDelivered), .failure(.busy):
          return .notDelivered
        case .failure(.outcomeUnknown):
          return .ownerGone(mayHaveApplied: true)
        }
      }
      switch try await acquire(id, in: cluster) {
      case .ownedElsewhere(let current, _) where current == owner:
        continue  // alive, and slow: keep waiting
      case .acquired(let snapshot):
        exchange.abandon()
        try adopt(snapshot, in: cluster)
        return .ownerGone(mayHaveApplied: true)
      default:
        exchange.abandon()
        return .ownerGone(mayHaveApplied: true)
      }
    }
  }

  /// Whether an owner's answer means the request may be sent again with its key (see
  /// ``HTTPError/retryableInClusterCodes``).
  private static func isRetryable(_ response: Response) -> Bool {
    guard response.status == 503 else { return false }
    return HTTPError.retryableInClusterCodes.contains { errorCode(of: response) == $0 }
  }

  private static func isOutcomeUnknown(_ response: Response) -> Bool {
    errorCode(of: response) == HTTPError.outcomeUnknown().code
  }

  /// The `error.code` of an answer's JSON body, if it has one.
  private static func errorCode(of response: Response) -> String? {
    guard case .bytes(let body) = response.body, let json = try? JSONValue(parsing: body),
      case .object(let members)? = json["error"], case .string(let code)? = members["code"]
    else { return nil }
    return code
  }

  /// The process that forwarded `request`, when its `X-StoreHost-Forwarded` header is
  /// signed with the cluster's secret and recent; `nil` for a request from a client, forged
  /// headers included.
  func forwardingOrigin(of request: Request) -> String? {
    guard cluster != nil, let header = request.headers[ForwardingSignature.headerName] else { return nil }
    return ForwardingSignature(signer: tokenSigner).verify(header, of: request)
  }

  // MARK: Ownership

  /// Stores a new session at version 0, owned by this process at its first epoch.
  func register(_ session: Session<State, Action>, in cluster: any SessionCluster) async throws {
    let start = ContinuousClock.now
    session.saveLatest(awaited: true)
    do {
      try await session.waitUntilDurable(0)
    } catch {
      if forgetSession(session) { session.end() }
      throw HTTPError.databaseUnavailable()
    }
    cluster.didCreate(session.id, epoch: session.epoch, at: start)
  }

  /// Starts serving a session just taken over, at its last durable state, relabelled and
  /// reserved by the takeover. When another request here took it over too, the session with
  /// the later epoch is kept (the other's saves would be refused). A session this build
  /// cannot read is given up unchanged, for a process that can, and answers 503.
  private func adopt(_ snapshot: SessionSnapshot, in cluster: any SessionCluster) throws {
    let session: Session<State, Action>
    do {
      session = try restoredSession(from: snapshot)
    } catch {
      Task { try? await cluster.move(snapshot.id, epoch: snapshot.epoch, to: nil) }
      cluster.didRelease(snapshot.id, epoch: snapshot.epoch)
      throw HTTPError.sessionUnreadable()
    }
    let (kept, replaced) = adoptSession(session)
    replaced?.end(failingWaitersWith: SessionOwnershipLost(id: session.id))
    guard kept === session else { return session.end() }
    if cluster.isActionWatched(session.id) { watchActions(of: session, true) }
    resume(session)
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

  /// Forgets a session here at once, without saving it: another process owns it now, or
  /// its saving failed. Saves already queued still answer their requests (another owner's
  /// epoch refuses them); requests whose change no save covers learn it was not applied.
  /// Its session-scoped in-memory shared values go too: they cannot follow it to its next
  /// owner, and must not come back stale if it returns here.
  func abandon(_ session: Session<State, Action>) {
    guard forgetSession(session) else { return }
    session.end(failingWaitersWith: SessionOwnershipLost(id: session.id))
    inMemoryStorage.removeValues(forSession: session.id.rawValue)
    cluster?.didRelease(session.id, epoch: session.epoch)
  }

  /// Hands `session` over to the process that forwards its requests, once this answer is
  /// out, when a load balancer routes the session to that process (see
  /// ``ForwardStreaks``): it takes the session over on its next request, and later actions
  /// skip the hop.
  func handOverIfRoutedElsewhere(_ session: Session<State, Action>, after request: Request) {
    guard cluster != nil, let successor = forwardStreaks.noteServed(session.id, forwardedBy: forwardingOrigin(of: request))
    else { return }
    Task { await depart(session, to: successor) }
  }

  /// Takes over, a batch at a time, the recently active sessions that no live process
  /// serves (their owner died or drained): each is rebuilt from its durable state and sent
  /// the host's resumed action, so its effects (a running timer) go on without waiting for
  /// its user's next request.
  func adoptOrphans() async {
    guard let cluster else { return }
    guard
      let orphans = try? await cluster.adoptOrphans(
        limit: Self.orphansPerRound, activeWithin: configuration.limits.idleTimeout,
        stateVersion: SavedState.version(of: State.self), reservationWindow: reservationWindow)
    else { return }
    for snapshot in orphans { try? adopt(snapshot, in: cluster) }
  }

  /// Orphaned sessions taken over per round.
  private static var orphansPerRound: Int { 64 }

  /// Moves `session` out of this process, to `successor` or to whichever process asks
  /// first: no request is admitted once it starts leaving (they wait, then find where it
  /// went); the requests being served finish, every save queued is made, then its final
  /// state, with nothing reserved past it; then its ownership moves, fenced by its epoch.
  func depart(_ session: Session<State, Action>, to successor: String?) async {
    guard let cluster, session.startLeaving() else { return }
    await session.waitForRequests()
    do {
      try await session.finish()
      try await cluster.move(session.id, epoch: session.epoch, to: successor)
    } catch {
      // Not saved or not moved: the next request here takes it over again, which moves the
      // epoch on and refuses anything this instance still had queued.
    }
    guard forgetSession(session) else { return }
    inMemoryStorage.removeValues(forSession: session.id.rawValue)
    cluster.didRelease(session.id, epoch: session.epoch)
  }

  /// Starts or stops announcing the actions of a session owned here to the processes
  /// streaming its `?log=1`.
  func watchActions(of session: Session<State, Action>, _ watched: Bool) {
    guard let cluster, watched else { return session.events.setRemoteLog(nil) }
    let id = session.id
    let announce: @Sendable ([UInt8]) -> Void = { [weak cluster] data in cluster?.announceAction(of: id, data) }
    session.events.setRemoteLog(announce)
  }
}
