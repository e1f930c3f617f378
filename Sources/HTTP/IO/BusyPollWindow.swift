/// How long an event loop keeps polling after a pass with work before it sleeps, adapted
/// to what polling has been worth (``ServerConfiguration/busyPoll`` is the longest).
///
/// Each time the loop slept and woke for socket work, the sleep says how soon that work
/// came after polling stopped. Work that came within the longest window would have been
/// found awake, sparing the wake-up: the window doubles (from an eighth of the longest).
/// Work that came later could not have been caught: polling only burned the core, and the
/// window halves, down to none. So a busy server with quick clients polls, and a server
/// at a few hundred requests a second, or idle, does not.
///
/// The window counts in nanoseconds: it is adapted on every wake-up, and `Duration`'s
/// arithmetic runs through generic 128-bit code.
struct BusyPollWindow {
  /// The longest window in nanoseconds; zero turns polling off.
  let limit: Int64
  /// The window after the next pass with work, in nanoseconds.
  private(set) var current: Int64

  init(limit: Duration) {
    self.limit = Int64(max(limit, .zero).nanosecondsValue)
    current = self.limit
  }

  /// The loop slept for `nanoseconds` before socket work woke it.
  mutating func sleptBeforeWork(nanoseconds: Int64) {
    guard limit > 0 else { return }
    if nanoseconds <= limit {
      current = min(limit, max(current * 2, limit / 8))
    } else {
      current /= 2
      if current < limit / 16 { current = 0 }
    }
  }
}
