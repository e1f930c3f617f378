/// How long an event loop keeps polling after a pass with work before it sleeps, adapted
/// to what polling has been worth (``ServerConfiguration/busyPoll`` is the longest).
///
/// Each time the loop slept and woke for socket work, the sleep says how soon that work
/// came after polling stopped. Work that came within the longest window would have been
/// found awake, sparing the wake-up: the window doubles (from an eighth of the longest).
/// Work that came later could not have been caught: polling only burned the core, and the
/// window halves, down to none. So a busy server with quick clients polls, and a server
/// at a few hundred requests a second, or idle, does not.
struct BusyPollWindow {
  /// The longest window; zero turns polling off.
  let limit: Duration
  /// The window after the next pass with work.
  private(set) var current: Duration

  init(limit: Duration) {
    self.limit = max(limit, .zero)
    current = self.limit
  }

  /// The loop slept for `duration` before socket work woke it.
  mutating func sleptBeforeWork(_ duration: Duration) {
    guard limit > .zero else { return }
    if duration <= limit {
      current = min(limit, max(current * 2, limit / 8))
    } else {
      current = current / 2
      if current < limit / 16 { current = .zero }
    }
  }
}
