/// A save was refused because another process owns the session now: this process's lease
/// expired (it stalled, or lost the database for longer than the lease) and the session was
/// taken over. The refused version was never durable and never announced.
struct SessionLeaseLost: Error, CustomStringConvertible {
  let id: SessionID

  var description: String { "session \(id) is owned by another process now" }
}
