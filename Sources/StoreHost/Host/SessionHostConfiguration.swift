/// How a ``SessionHost`` runs its sessions. Every field has a default meant for a small
/// public deployment.
public struct SessionHostConfiguration: Sendable {
  /// Sizes, counts and rates per session and in all (see ``SessionLimits``).
  public var limits = SessionLimits()
  /// Whether `POST .../actions` answers only once the new state is saved (`.strict`), or
  /// right away with saves following within the persistence's batch delay (`.fast`).
  public var durability: Durability = .fast
  /// Whether the token cookie is marked `Secure` (serve over HTTPS).
  public var secureCookies = false
  /// The longest `?wait=effects` waits for effects to finish before answering. Default 30 s.
  public var effectsWaitTimeout: Duration = .seconds(30)
  /// The reconnection delay suggested to event stream clients (`retry:`). Default 2 s.
  public var eventStreamRetry: Duration = .seconds(2)
  /// Told of each saved session this build finds it cannot read, when a request first
  /// asks for it (the session is kept; see ``UnreadableSession``). Default: nothing.
  public var onUnreadableSession: (@Sendable (UnreadableSession) -> Void)?
  /// Told when writing sessions to storage starts to fail (with the storage's error) and
  /// when it works again (see ``StorageHealth``): the moments to log. Default: nothing.
  public var onStorageHealthChange: (@Sendable (StorageHealth.Change) -> Void)?
  /// How long a watch ticket (`POST /api/sessions/{id}/tickets`) lets a stream of several
  /// sessions (`GET /api/events`) start watching its session. Default 5 minutes.
  public var watchTicketLifetime: Duration = .seconds(300)
  /// How many steps of each session's history are kept (see `SessionHistory`): its
  /// actions, who sent them and the versions they made, saved with the session. It holds
  /// what users typed. 0 (the default) keeps none, and a host keeping none deletes any kept
  /// before once its housekeeping starts (``SessionHost/startEvictingIdleSessions()``).
  public var historyLength = 0

  public init() {}
}
