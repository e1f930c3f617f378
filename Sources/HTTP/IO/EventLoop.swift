import CSystemShim
import Glibc
import Synchronization

/// One thread running an epoll loop over a listening socket and its connections.
///
/// Thread confinement: everything but `jobs` and `wakePending` is touched only on the
/// loop's own thread; other threads reach the loop through ``execute(_:)``, which is why
/// the class can be `@unchecked Sendable`.
final class EventLoop: @unchecked Sendable {
  private enum Token {
    static let wake: UInt64 = 0
    static let timer: UInt64 = 1
    static let listener: UInt64 = 2
  }

  let core: ServerCore
  /// This loop's part of the server's counters.
  let counters: LoopCounters
  private let selector: PlatformSelector
  private let wakeFD: Int32
  private let timerFD: Int32
  private let jobs = Mutex<Jobs>(Jobs())
  private let wakePending = Atomic<Bool>(false)
  private var listener: Int32?
  /// The listener is unwatched until the next tick because `accept4` ran out of descriptors.
  private var acceptPaused = false
  /// The connections by token. All but event streams are checked on every tick; a stream's
  /// deadlines (heartbeat, stall) are checked about once a second, so idle streams cost little.
  private var connections = ConnectionSlots<Connection>()
  private var ticksSinceStreamCheck = 0
  private var drainDeadline: MonotonicInstant?
  /// Whether the tick timer runs: not while the loop has no connection, so an idle server
  /// never wakes.
  private var timerArmed = true
  private var running = true
  private var cachedDateSecond = -1
  private var cachedDate: [UInt8] = []
  /// The time of the current loop iteration.
  private(set) var now = MonotonicInstant.now
  /// One read buffer shared by all connections of this loop.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

  init(core: ServerCore, listener: Int32, counters: LoopCounters) throws(SystemError) {
    self.core = core
    self.counters = counters
    self.listener = listener
    selector = try PlatformSelector()
    wakeFD = try syscallChecked("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    timerFD = try syscallChecked("timerfd_create") {
      timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
    }
    try syscallChecked("timerfd_settime") { csystem_timerfd_arm(timerFD, core.tickInterval.nanosecondsValue) }
    try selector.register(wakeFD, token: Token.wake, interest: .read)
    try selector.register(timerFD, token: Token.timer, interest: .read)
    try selector.register(listener, token: Token.listener, interest: .read)
  }

  deinit {
    readBuffer.deallocate()
    close(wakeFD)
    close(timerFD)
  }

  /// Work handed to the loop from other threads.
  private struct Jobs {
    var closures: [@Sendable () -> Void] = []
    /// Connections whose event streams queued frames.
    var streamOutput: [UInt64] = []
    /// Tasks of ``executor`` made ready by other threads.
    var tasks: [UnownedJob] = []

    var isEmpty: Bool { closures.isEmpty && streamOutput.isEmpty && tasks.isEmpty }

    /// Empties the arrays, keeping their room.
    mutating func removeAll() {
      closures.removeAll(keepingCapacity: true)
      streamOutput.removeAll(keepingCapacity: true)
      tasks.removeAll(keepingCapacity: true)
    }
  }
  /// The jobs being run, taken from `jobs` (loop thread only).
  private var takenJobs = Jobs()

  /// Where the handlers of this loop's connections run (see ``LoopExecutor``).
  private(set) lazy var executor = LoopExecutor(loop: self)
  /// Tasks made ready on the loop's own thread, run before it waits again.
  private var readyTasks: [UnownedJob] = []
  /// The ready tasks being run (see ``runReadyTasks()``).
  private var runningTasks: [UnownedJob] = []
  /// Whether the current pass served a connection or the listener (see
  /// ``ServerConfiguration/busyPoll``).
  private var hadSocketWork = false
  /// The loop's thread, once it runs.
  private var thread: pthread_t?

  /// Queues a task of ``executor``: from the loop's own thread without a lock or a wake-up.
  func enqueue(_ job: UnownedJob) {
    if let thread, pthread_equal(thread, pthread_self()) != 0 {
      readyTasks.append(job)
      return
    }
    jobs.withLock { $0.tasks.append(job) }
    wake()
  }

  /// Runs `job` on the loop's thread soon. Callable from any thread.
  func execute(_ job: @escaping @Sendable () -> Void) {
    jobs.withLock { $0.closures.append(job) }
    wake()
  }

  /// Has the connection `token` write what its event stream queued, soon. Callable from any
  /// thread; the connections of one wake-up are served together.
  func scheduleStreamOutput(for token: UInt64) {
    jobs.withLock { $0.streamOutput.append(token) }
    wake()
  }

  private func wake() {
    if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
      var one: UInt64 = 1
      _ = Glibc.write(wakeFD, &one, 8)
    }
  }

  /// The loop's body; returns when the loop has drained after ``beginDrain(deadline:)``.
  func run() {
    thread = pthread_self()
    _ = executor
    var busyPoll = BusyPollWindow(limit: core.configuration.busyPoll)
    var pollUntil = MonotonicInstant.now
    while running {
      hadSocketWork = false
      // Sleeps only once a busy-poll window has passed with nothing to do.
      let sleepStart: MonotonicInstant? = now < pollUntil ? nil : .now
      // The clock is read once per wake-up, for all the events of the wait: they are handled
      // one after another, and every deadline counts in milliseconds or more.
      var readClock = false
      do {
        try selector.wait(timeoutMilliseconds: sleepStart == nil ? 0 : -1) { event in
          if !readClock {
            now = .now
            readClock = true
          }
          handle(event)
        }
      } catch {
        // epoll_wait fails only on programming errors; nothing can be served after it.
        fatalError("\(error)")
      }
      if !readClock { now = .now }
      if let sleepStart, hadSocketWork { busyPoll.sleptBeforeWork(nanoseconds: now.nanoseconds(since: sleepStart)) }
      runJobs()
      if hadSocketWork { pollUntil = now.advanced(byNanoseconds: busyPoll.current) }
      if drainDeadline != nil && connections.isEmpty { running = false }
    }
    for connection in connections.all { connection.closeNow() }
  }

  private func handle(_ event: ReadinessEvent) {
    switch event.token {
    case Token.wake:
      var value: UInt64 = 0
      _ = Glibc.read(wakeFD, &value, 8)
    case Token.timer:
      var expirations: UInt64 = 0
      _ = Glibc.read(timerFD, &expirations, 8)
      tick()
    case Token.listener:
      hadSocketWork = true
      acceptConnections()
    default:
      hadSocketWork = true
      connections[event.token]?.handle(event)
    }
  }

  /// Runs what other threads handed over and the tasks that became ready, until none is
  /// left. The wake-up flag is cleared only then, so threads handing over work while this
  /// runs write no more wake-ups.
  private func runJobs() {
    while true {
      runReadyTasks()
      // The handed-over jobs and the emptied arrays of the last round trade places: taking
      // them allocates nothing (a copy would leave `jobs` sharing the arrays it must empty).
      jobs.withLock { swap(&$0, &takenJobs) }
      if takenJobs.isEmpty {
        wakePending.store(false, ordering: .releasing)
        // Work handed over after the last look but before the flag was cleared found it
        // set and wrote no wake-up: look once more.
        guard jobs.withLock({ !$0.isEmpty }) || !readyTasks.isEmpty else { return }
        wakePending.store(true, ordering: .releasing)
        continue
      }
      for job in takenJobs.tasks { executor.run(job) }
      for job in takenJobs.closures { job() }
      for token in takenJobs.streamOutput { connections[token]?.writeStreamOutput() }
      takenJobs.removeAll()
    }
  }

  /// Runs the tasks made ready on this thread, including those they make ready.
  private func runReadyTasks() {
    while !readyTasks.isEmpty {
      // Swapped, not copied, as in ``runJobs()``: tasks the jobs make ready go to the other array.
      swap(&readyTasks, &runningTasks)
      for job in runningTasks { executor.run(job) }
      runningTasks.removeAll(keepingCapacity: true)
    }
  }

  private func tick() {
    if acceptPaused, let listener {
      acceptPaused = false
      try? selector.register(listener, token: Token.listener, interest: .read)
    }
    if let drainDeadline, now >= drainDeadline {
      for connection in connections.all { connection.closeNow() }
      return
    }
    if connections.isEmpty && drainDeadline == nil && !acceptPaused {
      setTimer(armed: false)
      return
    }
    // Collected first: a tick may close its connection, which removes it from the tables.
    var due = connections.ticking
    ticksSinceStreamCheck += 1
    if ticksSinceStreamCheck * Int(core.tickInterval / .milliseconds(1)) >= 1000 {
      ticksSinceStreamCheck = 0
      for connection in connections.all where connection.isStreaming && connection.isDue(now) {
        due.append(connection)
      }
    }
    for connection in due { connection.tick(now: now) }
  }

  private func acceptConnections() {
    guard let listener else { return }
    for _ in 0..<64 {
      let accepted: (Int32, String)
      do {
        switch try Socket.accept(listener) {
        case .wouldBlock: return
        case .processed(let result): accepted = result
        }
      } catch {
        // EMFILE and friends: the backlog keeps the client until a descriptor frees up.
        // Stop watching the listener until the next tick, or level-triggered epoll would
        // spin on it.
        selector.deregister(listener)
        acceptPaused = true
        setTimer(armed: true)
        return
      }
      let (fd, remote) = accepted
      let count = core.state.connectionCount.add(1, ordering: .relaxed).newValue
      if count > core.configuration.limits.maxConnections || drainDeadline != nil {
        core.state.connectionCount.subtract(1, ordering: .relaxed)
        refuse(fd)
        continue
      }
      register(fd: fd, remote: remote)
    }
  }

  private func register(fd: Int32, remote: String) {
    var transport = Transport.plain
    if let tls = core.tls {
      guard let session = tls.makeSession(fd: fd) else {
        core.state.connectionCount.subtract(1, ordering: .relaxed)
        close(fd)
        return
      }
      transport = .tls(session)
    }
    let token = connections.reserveToken()
    let connection = Connection(fd: fd, token: token, transport: transport, remote: remote, loop: self)
    do {
      try selector.register(fd, token: token, interest: .read)
    } catch {
      connections.remove(token)
      transport.shutdown()
      close(fd)
      core.state.connectionCount.subtract(1, ordering: .relaxed)
      return
    }
    connections.insert(connection, at: token)
    setTimer(armed: true)
  }

  /// Starts or stops the tick timer (a no-op when it already is so).
  private func setTimer(armed: Bool) {
    guard armed != timerArmed else { return }
    timerArmed = armed
    _ = csystem_timerfd_arm(timerFD, armed ? core.tickInterval.nanosecondsValue : 0)
  }


  /// Answers a connection beyond the limit with 503 (plain HTTP only; a TLS client just
  /// sees the close) and closes it.
  private func refuse(_ fd: Int32) {
    if core.tls == nil {
      _ = core.busyAnswer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    close(fd)
  }

  // MARK: For connections

  func updateInterest(fd: Int32, token: UInt64, interest: Interest) {
    try? selector.reregister(fd, token: token, interest: interest)
  }

  /// The connection `token` now streams events: its deadlines are checked about once a second.
  func startedStreaming(_ token: UInt64) {
    connections.setTicks(false, at: token)
  }

  /// The connection `token` no longer streams (it may linger or close): checked every tick.
  func stoppedStreaming(_ token: UInt64) {
    connections.setTicks(true, at: token)
  }

  func remove(fd: Int32, token: UInt64) {
    selector.deregister(fd)
    connections.remove(token)
    core.state.connectionCount.subtract(1, ordering: .relaxed)
    // Draining ends with the last connection, not at the next tick.
    if drainDeadline != nil && connections.isEmpty { running = false }
  }

  /// The `Date` header value, formatted once per second.
  var date: [UInt8] {
    let second = HTTPDate.nowSeconds()
    if second != cachedDateSecond {
      cachedDateSecond = second
      cachedDate = Array(HTTPDate.format(second).utf8)
    }
    return cachedDate
  }

  // MARK: Shutdown

  /// Stops accepting and lets connections finish; closes the rest at `deadline`.
  func beginDrain(deadline: MonotonicInstant) {
    guard drainDeadline == nil else { return }
    drainDeadline = deadline
    setTimer(armed: true)
    if let listener {
      selector.deregister(listener)
      close(listener)
      self.listener = nil
    }
    for connection in connections.all { connection.startDraining() }
    if connections.isEmpty { running = false }
  }
}
