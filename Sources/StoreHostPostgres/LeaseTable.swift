import HTTP
import StoreHost

/// What a process knows of its own lease and of the sessions it owns, and so whether it may
/// serve a session without asking the database. A pure value, used under a lock.
///
/// Another process may take one of this process's sessions only once its heartbeat is older
/// than the lease in the database (or its liveness lock is free: it died). So, after a
/// heartbeat that started at `start` on this process's clock, nobody can take a session
/// before `start + lease`, and this process serves until `start + lease - margin`.
///
/// A pause (SIGSTOP, a stalled VM, a long GC-like stall) or a lost database connection can
/// let others take sessions meanwhile, and the next heartbeat would make the lease look
/// valid again. So each heartbeat also returns when it was stored, by the database's clock:
/// when two stored heartbeats are further apart than the lease less the margin, or the
/// liveness lock was lost, the ``generation`` moves on. A session is served only while it
/// was confirmed in the current generation: by the takeover or creation that gave it to this
/// process, by a check of its epoch (``SessionCluster/verify(_:epoch:)``), or by a renewal
/// that read every session this process owns.
struct LeaseTable {
  /// A session this process holds, at an epoch, confirmed in a generation.
  struct Owned: Equatable {
    var epoch: Int
    var generation: Int
    /// The confirmation that recorded it (see ``Ticket/sequence``).
    var confirmation: Int
  }

  /// A database call that renews the heartbeat and confirms sessions, taken when it starts.
  struct Ticket {
    let start: ContinuousClock.Instant
    let generation: Int
    /// Orders confirmations: a check of every session does not judge sessions confirmed
    /// after it started.
    let sequence: Int
  }

  let lease: Duration
  let margin: Duration
  /// Moves on whenever other processes may have taken sessions without this one knowing.
  private(set) var generation = 0
  /// How many times it moved on: pauses or stalls found, and liveness locks lost.
  private(set) var gaps = 0
  /// When it last moved on.
  private var generationChangedAt: ContinuousClock.Instant
  /// Until when the lease holds, if the liveness lock is held.
  private(set) var validUntil: ContinuousClock.Instant
  /// Whether the liveness lock is held, as far as this process knows.
  private(set) var holdsLock = false
  /// Whether a renewal should read every session this process owns: after the generation
  /// moved on, sessions not confirmed since are lost or unverified.
  private(set) var needsFullCheck = false
  private(set) var sessions: [SessionID: Owned] = [:]
  /// The latest heartbeat stored, in seconds of the database's clock.
  private var lastBeat: Double?
  private var sequence = 0

  init(lease: Duration, margin: Duration, now: ContinuousClock.Instant) {
    self.lease = lease
    self.margin = margin
    self.validUntil = now
    self.generationChangedAt = now
  }

  /// Starts a database call that renews the heartbeat.
  mutating func begin(now: ContinuousClock.Instant) -> Ticket {
    sequence += 1
    return Ticket(start: now, generation: generation, sequence: sequence)
  }

  /// A heartbeat started with `ticket` was stored at `stored`, and its statement saw the
  /// clock at `after` once it held the heartbeat's row (both in seconds of the database's
  /// clock), and is handled at `now`.
  /// - Returns: The ticket for what the call read after its heartbeat: in the current
  ///   generation when this heartbeat is the one that found the gap (it came after it).
  mutating func renewed(_ ticket: Ticket, stored: Double, after: Double, now: ContinuousClock.Instant) -> Ticket {
    var ticket = ticket
    if let lastBeat, after - lastBeat > (lease - margin).secondsValue {
      if ticket.generation == generation { ticket = Ticket(start: ticket.start, generation: generation + 1, sequence: ticket.sequence) }
      generation += 1
      gaps += 1
      generationChangedAt = now
      needsFullCheck = true
    }
    lastBeat = max(lastBeat ?? stored, stored)
    if holdsLock { validUntil = max(validUntil, ticket.start + lease - margin) }
    return ticket
  }

  /// The liveness lock was taken (on a new connection of the listener).
  mutating func lockAcquired() {
    holdsLock = true
  }

  /// The liveness lock's connection broke: other processes may take every session at once.
  mutating func lockLost(now: ContinuousClock.Instant) {
    holdsLock = false
    validUntil = now
    generation += 1
    gaps += 1
    generationChangedAt = now
    needsFullCheck = true
  }

  /// Whether the lease is known to hold at `now`: the liveness lock is held and a renewal
  /// confirmed it recently enough.
  func holdsLease(now: ContinuousClock.Instant) -> Bool {
    holdsLock && now < validUntil
  }

  /// Whether `id`, held at `epoch`, may be served without asking the database.
  func isServing(_ id: SessionID, epoch: Int, now: ContinuousClock.Instant) -> Bool {
    guard let owned = sessions[id] else { return false }
    return owned.epoch == epoch && owned.generation == generation && holdsLease(now: now)
  }

  /// A call started with `ticket` found `id` owned by this process at `epoch` (a takeover,
  /// a creation, a check). A later epoch replaces an earlier one; a confirmation from an
  /// earlier generation records the session without letting it be served.
  mutating func confirm(_ id: SessionID, epoch: Int, _ ticket: Ticket) {
    if let owned = sessions[id], owned.epoch > epoch { return }
    sessions[id] = Owned(epoch: epoch, generation: ticket.generation, confirmation: ticket.sequence)
  }

  /// This process created `id` at `epoch` with a save that started at `start`: confirmed in
  /// the current generation unless the generation moved on since `start` (a pause during
  /// the save could have cost it the session).
  mutating func confirmCreated(_ id: SessionID, epoch: Int, startedAt start: ContinuousClock.Instant) {
    sequence += 1
    let generation = generationChangedAt > start ? self.generation - 1 : self.generation
    confirm(id, epoch: epoch, Ticket(start: start, generation: generation, sequence: sequence))
  }

  /// Forgets `id` held at `epoch` (a later epoch of it stays).
  mutating func release(_ id: SessionID, epoch: Int) {
    if sessions[id]?.epoch == epoch { sessions[id] = nil }
  }

  /// Forgets every session.
  mutating func releaseAll() {
    sessions = [:]
  }

  /// A renewal started with `ticket` read every session this process owns, with its epoch:
  /// those held here at another epoch, or no longer owned, are lost; the others are
  /// confirmed. Sessions confirmed after the renewal started are left as they are.
  /// - Returns: The sessions lost.
  mutating func checked(owned: [SessionID: Int], _ ticket: Ticket) -> [SessionID] {
    var lost: [SessionID] = []
    for (id, held) in sessions where held.confirmation < ticket.sequence {
      if owned[id] == held.epoch {
        sessions[id] = Owned(epoch: held.epoch, generation: ticket.generation, confirmation: ticket.sequence)
      } else {
        lost.append(id)
        sessions[id] = nil
      }
    }
    if ticket.generation == generation { needsFullCheck = false }
    return lost
  }
}
