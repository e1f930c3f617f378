import HTTP

/// Connecting event stream clients to sessions: one session on a stream of its own, or
/// several on one stream (`GET /api/events`).
extension SessionHost {
  /// A function that stops one client's watch of a session.
  typealias StopWatching = @Sendable () -> Void

  /// Sends the events of the live `session` to `sink`, as `options` ask, and counts the
  /// watch in ``openStreams``. `onEnd` is called once if the session ends meanwhile.
  /// - Returns: What stops the watch, or 429 when the session has as many clients as it may
  ///   and 404 when it has just ended.
  func watch(
    _ session: Session<State, Action>, sink: any EventSink, options: WatchOptions,
    onEnd: @escaping @Sendable () -> Void
  ) -> Result<StopWatching, HTTPError> {
    guard session.events.clientCount < configuration.limits.maxEventStreamsPerSession else {
      return .failure(tooManyStreams(here: false))
    }
    session.touch()
    let everyone = openStreams.add(1, ordering: .relaxed).newValue
    guard
      let client = session.events.connect(
        sink, patches: options.patches, log: options.log, presence: options.presence, everyone: everyone,
        framing: options.framing, lastEventID: options.lastEventID, onEnd: onEnd)
    else {
      openStreams.subtract(1, ordering: .relaxed)
      return .failure(.sessionNotFound())
    }
    return .success { [self] in
      openStreams.subtract(1, ordering: .relaxed)
      session.events.disconnect(client)
      session.touch()
    }
  }

  /// In a cluster: sends every durable version of session `id` to `sink`, from whichever
  /// process owns it, and with `?log=1` its owner's actions (see ``SessionFollowers``), and
  /// counts the watch in ``openStreams``.
  /// - Returns: What stops the watch, or 404, 429 or 503 (its durable version cannot be read).
  func watchFollowed(
    _ id: SessionID, by followers: SessionFollowers, sink: any EventSink, options: WatchOptions,
    onEnd: @escaping @Sendable () -> Void
  ) async -> Result<StopWatching, HTTPError> {
    do {
      guard let hold = try await followers.prepare(id) else { return .failure(.sessionNotFound()) }
      defer { withExtendedLifetime(hold) {} }
      guard followers.clientCount(id) < configuration.limits.maxEventStreamsPerSession else {
        return .failure(tooManyStreams(here: true))
      }
      let everyone = openStreams.add(1, ordering: .relaxed).newValue
      guard
        let (fanout, client) = try? await followers.connect(
          id, sink, patches: options.patches, log: options.log, presence: options.presence, everyone: everyone,
          framing: options.framing, lastEventID: options.lastEventID, onEnd: onEnd)
      else {
        openStreams.subtract(1, ordering: .relaxed)
        return .failure(.sessionNotFound())
      }
      return .success { [self] in
        openStreams.subtract(1, ordering: .relaxed)
        followers.disconnect(id, fanout: fanout, client: client)
      }
    } catch let error as HTTPError {
      return .failure(error)
    } catch {
      return .failure(.databaseUnavailable())
    }
  }

  /// 429: the session has ``SessionLimits/maxEventStreamsPerSession`` clients already (on
  /// this process, in a cluster).
  func tooManyStreams(here: Bool) -> HTTPError {
    let limit = configuration.limits.maxEventStreamsPerSession
    return .rateLimited(
      retryAfter: .seconds(5), "This session has \(limit) event streams open\(here ? " here" : "") already.")
  }
}
