/// A save was refused because this process no longer owns the session: its lease expired
/// (it stalled, or lost the database for longer than the lease) and the session was taken
/// over, or the session was deleted meanwhile. The refused version was never durable and
/// never announced.
struct SessionLeaseLost: Error, CustomStringConvertible {
  let id: SessionID

  var description: String { "session \(id) is no longer owned by this process" }
}
