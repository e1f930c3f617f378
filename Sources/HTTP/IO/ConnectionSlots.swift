/// An event loop's connections by token, found by index rather than by hash: a token is a
/// slot's position (from ``firstToken``) in its low 32 bits and the slot's generation above,
/// so an event or a handed-over job for a closed connection finds nothing, even once a new
/// connection has its slot. Each slot also says whether its connection is checked on every
/// tick.
struct ConnectionSlots<Connection: AnyObject> {
  private struct Slot {
    var connection: Connection?
    /// Counts the slot's connections; part of the current one's token.
    var generation: UInt32 = 0
    var ticks = false
  }

  /// The lowest token a connection gets: those below are the loop's own (wake, timer, listener).
  static var firstToken: UInt64 { 16 }

  private var slots: [Slot] = []
  /// Slots without a connection, the last freed last.
  private var freeSlots: [Int] = []
  /// How many tokens are reserved or hold a connection.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// A token for a connection about to be made: ``insert(_:at:)`` puts it there, or
  /// ``remove(_:)`` gives it back.
  mutating func reserveToken() -> UInt64 {
    count += 1
    if let index = freeSlots.popLast() { return token(of: index) }
    slots.append(Slot())
    return token(of: slots.count - 1)
  }

  /// Puts `connection` at its reserved `token`, checked on every tick.
  mutating func insert(_ connection: Connection, at token: UInt64) {
    guard let index = index(of: token) else { preconditionFailure("token \(token) is not reserved") }
    slots[index].connection = connection
    slots[index].ticks = true
  }

  /// The connection at `token`, or `nil` when it is gone.
  subscript(token: UInt64) -> Connection? {
    index(of: token).flatMap { slots[$0].connection }
  }

  /// Empties the slot of `token` (reserved or holding a connection): the token finds nothing
  /// from now on. A token already removed is ignored.
  mutating func remove(_ token: UInt64) {
    guard let index = index(of: token) else { return }
    slots[index] = Slot(generation: slots[index].generation &+ 1)
    freeSlots.append(index)
    count -= 1
  }

  /// Whether the connection at `token` is checked on every tick.
  mutating func setTicks(_ ticks: Bool, at token: UInt64) {
    guard let index = index(of: token), slots[index].connection != nil else { return }
    slots[index].ticks = ticks
  }

  /// Every connection, in slot order.
  var all: [Connection] { slots.compactMap(\.connection) }

  /// The connections checked on every tick.
  var ticking: [Connection] { slots.compactMap { $0.ticks ? $0.connection : nil } }

  private func token(of index: Int) -> UInt64 {
    UInt64(slots[index].generation) << 32 | (UInt64(index) + Self.firstToken)
  }

  private func index(of token: UInt64) -> Int? {
    let position = token & 0xFFFF_FFFF
    guard position >= Self.firstToken else { return nil }
    let index = Int(position - Self.firstToken)
    guard index < slots.count, slots[index].generation == UInt32(truncatingIfNeeded: token >> 32) else { return nil }
    return index
  }
}
