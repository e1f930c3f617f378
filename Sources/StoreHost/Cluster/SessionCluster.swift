import Foundation

/// What a ``SessionHost`` needs from the processes it shares its sessions with: one owner per
/// session, known to the database, with an epoch that fences the saves of every former owner;
/// a lease that tells this process, without asking, whether it may still serve a session; and
/// the announcements of every durable version, which feed the event streams of any process.
///
/// `StoreHostPostgres` implements it on PostgreSQL (`PostgresCluster`). Without a cluster the
/// host serves every session itself and nothing here is used.
public protocol SessionCluster: AnyObject, Sendable {
  /// This process's id among the cluster's processes.
  var processID: String { get }
  /// How often the host calls ``renew()``.
  var renewalInterval: Duration { get }
  /// How long after its last renewal a silent process's sessions may be taken over: the
  /// longest a request waits for a hung or dead owner.
  var leaseDuration: Duration { get }

  /// Registers `address` (`http://host:port`) as where this process takes forwarded
  /// requests, starts its lease, and delivers every process's announcements to `receiver`.
  func join(advertising address: String, announcements receiver: any ClusterAnnouncementReceiver) async throws
  /// Gives up every session still owned here (each already saved), forgets this process's
  /// address, and stops.
  func leave() async

  /// Takes the session when no live process owns it (or this one does), moving its epoch on,
  /// relabelling its versions past the ones its last owner reserved and reserving
  /// `reservationWindow` more; else says where it is.
  func acquire(_ id: SessionID, stateVersion: Int, reservationWindow: Int) async throws -> ClusterAcquisition
  /// Records a session this process created at `epoch`, by a save that started at `start`.
  func didCreate(_ id: SessionID, epoch: Int, at start: ContinuousClock.Instant)
  /// Whether this process's lease is known to hold: renewed recently enough, which a
  /// database that is unreachable or slower than the lease stops. `GET /readyz` answers 503
  /// while it does not.
  var holdsLease: Bool { get }
  /// Whether this process may serve `id`, which it holds at `epoch`, without asking the
  /// database: its lease is known to hold, and no pause or lost connection since the
  /// session was last confirmed could have let another process take it.
  func isServing(_ id: SessionID, epoch: Int) -> Bool
  /// Asks the database whether this process still owns `id` at `epoch`, renewing its lease
  /// on the way; when it does, ``isServing(_:epoch:)`` holds again.
  func verify(_ id: SessionID, epoch: Int) async throws -> Bool
  /// Renews this process's lease once.
  /// - Returns: The sessions it found it no longer owns.
  func renew() async -> [SessionID]
  /// Takes up to `limit` sessions that no live process owns and that were active within
  /// `recently`, as ``acquire(_:stateVersion:reservationWindow:)`` takes one.
  func adoptOrphans(limit: Int, activeWithin recently: Duration, stateVersion: Int, reservationWindow: Int)
    async throws -> [SessionSnapshot]
  /// Deletes, with their remembered answers, up to `limit` stored sessions idle for longer
  /// than `idle` that no live process serves and that a build of `stateVersion` or earlier
  /// saved; each is deleted by exactly one process.
  /// - Returns: The ids deleted.
  func deleteExpired(idleFor idle: Duration, stateVersion: Int, limit: Int) async throws -> [SessionID]
  /// Gives `id`, owned here at `epoch` and saved, to the process `successor` (or to nobody,
  /// for whichever process asks first), moving its epoch on, in one statement.
  func move(_ id: SessionID, epoch: Int, to successor: String?) async throws
  /// Forgets `id`, held here at `epoch`: ended, given up or lost.
  func didRelease(_ id: SessionID, epoch: Int)
  /// The session's latest durable state, whoever owns it; `nil` when there is no such session.
  func durableSnapshot(_ id: SessionID) async throws -> SessionSnapshot?
  /// Reads the session's durable version and state in order with the announcements, and
  /// calls `body` with it (`nil`: no such session) before the next announcement is delivered.
  func readInOrder(_ id: SessionID, _ body: @escaping @Sendable (Result<DurableVersion?, any Error>) -> Void)
  /// Tells every process that a `?log=1` stream on this one watches `id` (or no longer
  /// does), so its owner announces its actions.
  func watchActions(of id: SessionID, _ watching: Bool)
  /// Whether any process watches the actions of `id`.
  func isActionWatched(_ id: SessionID) -> Bool
  /// Announces an `action` event of `id` to the processes that watch it.
  func announceAction(of id: SessionID, _ data: [UInt8])
  /// The cluster's own lines for `GET /metrics`.
  var metrics: [ClusterMetric] { get }
}

/// Where a session is, as far as the cluster knows.
public enum ClusterAcquisition: Sendable {
  /// This process owns it now, at this durable state (with its epoch and remembered answers).
  case acquired(SessionSnapshot)
  /// The live process `owner` owns it; `address` is where it takes forwarded requests.
  case ownedElsewhere(owner: String, address: String?)
  /// A newer build saved it, under a state version this build cannot read, and no live
  /// process serves it.
  case savedByNewerBuild
  /// No such session.
  case notFound
}

/// A session's durable version and state's JSON, as announced.
public struct DurableVersion: Sendable {
  public var version: Int
  public var state: [UInt8]

  public init(version: Int, state: [UInt8]) {
    self.version = version
    self.state = state
  }
}

/// Where a cluster delivers what its processes announce, in the order the database
/// committed it: the host's event streams.
public protocol ClusterAnnouncementReceiver: AnyObject, Sendable {
  /// The sessions streamed here: after announcements were missed, the cluster reads each
  /// again and delivers it.
  var followedSessions: [SessionID] { get }
  /// Whether `id` is streamed here; if not, an announcement without its state need not be
  /// completed by a read.
  func isFollowing(_ id: SessionID) -> Bool
  /// A durable version of `id`.
  func received(_ id: SessionID, _ version: DurableVersion)
  /// `id` was deleted.
  func deleted(_ id: SessionID)
  /// An `action` event of `id`, from its owner.
  func receivedAction(of id: SessionID, _ data: [UInt8])
  /// Whether any process watches the actions of `id` changed.
  func actionWatchChanged(of id: SessionID, watched: Bool)
}

/// One line of `GET /metrics` a cluster adds: a Prometheus counter or gauge.
public struct ClusterMetric: Sendable {
  public enum Kind: String, Sendable {
    case counter, gauge
  }

  public var name: String
  public var kind: Kind
  public var help: String
  public var value: Int

  public init(name: String, kind: Kind, help: String, value: Int) {
    self.name = name
    self.kind = kind
    self.help = help
    self.value = value
  }
}

/// A save was refused because this process no longer owns the session at the save's epoch:
/// another process took it over (this one stalled, or lost the database for longer than its
/// lease), it was handed over, or it was deleted. Nothing of the save was written.
public struct SessionOwnershipLost: Error, CustomStringConvertible {
  public let id: SessionID

  public init(id: SessionID) {
    self.id = id
  }

  public var description: String { "session \(id) is no longer owned by this process" }
}

/// The cluster's database did not confirm this process's lease in time: it is unreachable,
/// or slower than the lease.
struct LeaseNotRenewed: Error, CustomStringConvertible {
  var description: String { "the database did not renew this process's lease in time (unreachable or stalled)" }
}

/// The database connection failed after a transaction's commit was sent: the save may or
/// may not be durable.
public struct SaveOutcomeUnknown: Error, CustomStringConvertible {
  public init() {}

  public var description: String { "the connection failed while the save was committing: it may or may not be durable" }
}
