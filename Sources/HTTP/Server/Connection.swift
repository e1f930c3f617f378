import Glibc

/// The I/O shell around one ``ConnectionStateMachine``: reads and writes the socket,
/// hands complete requests to handler tasks, and writes their responses back in order.
///
/// Thread confinement: used only on its ``EventLoop``'s thread; tasks reach it through
/// `loop.execute`, hence `@unchecked Sendable`.
final class Connection: @unchecked Sendable {
  private struct InFlight {
    var method: String
    var path: String
    var keepAlive: Bool
    var minorVersion: Int
    var start: MonotonicInstant
    /// Where the handler ran; an event stream's closure runs there too.
    var placement: Router.Placement = .eventLoop
  }

  private static let lingerTime = Duration.seconds(2)

  private let fd: Int32
  private let token: UInt64
  private let transport: Transport
  private let remote: String
  // The loop outlives its connections; unowned(unsafe) spares a reference count per access.
  private unowned(unsafe) let loop: EventLoop
  private var machine: ConnectionStateMachine
  /// Response heads and bodies not yet written.
  private var output: [UInt8] = []
  private var outputOffset = 0
  /// A file body to write after `output`: on a plain socket from where it is kept, over TLS
  /// through `output` a chunk at a time as the socket drains. Nothing is queued behind it:
  /// the next request is answered once it is out (`keepAliveAfterFile`).
  private var pendingFile: FileBody?
  /// Set while a file body is being written: the request is finished (with this keep-alive)
  /// once it is out, so a pipelined request's answer never has to wait in memory behind it.
  private var keepAliveAfterFile: Bool?
  /// How much of a file body a TLS connection reads into `output` at a time.
  private static let tlsFileChunkSize = 64 * 1024
  /// The stream's frames not yet written (after `output`), and how much of the first is out.
  private var frames: [EventFrame] = []
  private var frameOffset = 0
  /// The stream asked to end once its frames are out.
  private var streamFinishing = false
  private var interest: Interest = .read
  private var readingPaused = false
  private var inputEnded = false
  private var closeAfterFlush = false
  private var lingerDeadline: MonotonicInstant?
  private var inFlight: InFlight?
  /// Set while ``perform(_:)`` runs; actions handed to it meanwhile wait in `deferredActions`.
  private var performing = false
  private var deferredActions: [ConnectionStateMachine.Action] = []
  /// The handler task answering the current request; cancelled if the client leaves.
  private var requestTask: Task<Void, Never>?
  private var stream: EventStream?
  private var streamTask: Task<Void, Never>?
  /// A TLS read could not finish until the socket is writable (renegotiation or handshake).
  private var readWantsWrite = false
  private var lastStreamWrite = MonotonicInstant.now
  private let heartbeatInterval: Duration
  /// When queued output last moved (or started waiting); a reader that stops reading is
  /// dropped after the idle timeout.
  private var lastWriteProgress = MonotonicInstant.now
  private(set) var isClosed = false

  init(fd: Int32, token: UInt64, transport: Transport, remote: String, loop: EventLoop) {
    self.fd = fd
    self.token = token
    self.transport = transport
    self.remote = remote
    self.loop = loop
    machine = ConnectionStateMachine(limits: loop.core.configuration.limits, now: loop.now)
    heartbeatInterval = loop.core.configuration.heartbeatInterval
  }

  // MARK: Events

  func handle(_ event: ReadinessEvent) {
    if event.hangup && !interest.contains(.read) {
      // Both directions are down (HUP or ERR while not reading): nothing can be delivered,
      // and level-triggered epoll would report it again on every wait.
      closeNow()
      return
    }
    if event.readable || event.hangup { readAvailable() }
    if isClosed { return }
    if event.writable {
      if readWantsWrite {
        readWantsWrite = false
        readAvailable()
        if isClosed { return }
      }
      flush()
    }
  }

  /// Whether the connection is an open event stream.
  var isStreaming: Bool { stream != nil }

  /// Whether ``tick(now:)`` has anything to check: always, but for an idle event stream,
  /// which only waits for its next heartbeat.
  func isDue(_ now: MonotonicInstant) -> Bool {
    stream == nil || hasPendingOutput || lingerDeadline != nil || now - lastStreamWrite >= heartbeatInterval
  }

  /// Checks this connection's deadlines.
  func tick(now: MonotonicInstant) {
    if let lingerDeadline {
      if now >= lingerDeadline { closeNow() }
      return
    }
    let core = loop.core
    if let stream {
      if hasPendingOutput {
        // The client stopped reading, or stayed too far behind for too long.
        let stallTimeout = core.configuration.eventStreamStallTimeout
        let stalled = stream.stalledSince.map { now - $0 >= stallTimeout } ?? false
        if stalled || now - lastWriteProgress >= stallTimeout {
          closeNow()
          return
        }
      }
      if now - lastStreamWrite >= heartbeatInterval {
        lastStreamWrite = now
        stream.comment("ping")
      }
      return
    }
    if hasPendingOutput && now - lastWriteProgress >= core.configuration.limits.idleTimeout {
      // The client stopped reading what is queued for it.
      closeNow()
      return
    }
    perform(machine.tick(now: now))
  }

  func startDraining() {
    if stream != nil {
      endStream()
      return
    }
    let actions = machine.startDraining()
    // An idle keep-alive connection has no answer in flight that a reset could cut short:
    // it closes at once instead of lingering, so idle clients do not hold up the drain.
    if actions == [.close] && !hasPendingOutput {
      closeNow()
    } else {
      perform(actions)
    }
  }

  private func readAvailable() {
    for _ in 0..<4 {
      let result: IOResult<Int>
      do {
        result = try transport.read(fd: fd, into: loop.readBuffer)
      } catch {
        closeNow()
        return
      }
      switch result {
      case .wouldBlock:
        if transport.wantsWrite {
          readWantsWrite = true
          setInterest(interest.union(.write))
        }
        return
      case .processed(0):
        inputEnded = true
        if lingerDeadline != nil || stream != nil {
          closeNow()
        } else {
          setInterest(interest.subtracting(.read))
          perform(machine.inputEnded(now: loop.now))
        }
        return
      case .processed(let count):
        // While lingering or streaming, whatever the client sends is dropped.
        if lingerDeadline == nil && stream == nil {
          perform(machine.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]), now: loop.now))
        }
        if isClosed || readingPaused || count < loop.readBuffer.count { return }
      }
    }
  }

  // MARK: State machine actions

  /// Runs the machine's actions, then writes. An answer given at once finishes its request
  /// inside this call, which may dispatch the next pipelined one: the actions that follow are
  /// taken by this loop, not by a nested call, so a run of pipelined requests never nests.
  private func perform(_ actions: [ConnectionStateMachine.Action]) {
    if performing {
      deferredActions.append(contentsOf: actions)
      return
    }
    performing = true
    defer { performing = false }
    var batch = actions
    while true {
      run(batch)
      // Writing may finish a file body, and with it the request: its actions come here too.
      if deferredActions.isEmpty && !isClosed { flush() }
      guard !deferredActions.isEmpty, !isClosed else { break }
      batch = deferredActions
      deferredActions.removeAll(keepingCapacity: true)
    }
    deferredActions.removeAll()
  }

  private func run(_ actions: [ConnectionStateMachine.Action]) {
    for action in actions {
      guard !isClosed else { return }
      switch action {
      case .dispatch(let head, let body):
        dispatch(head, body: body)
      case .write(let bytes):
        queue(bytes)
      case .fail(let error):
        let response = HTTPError(status: error.status, code: error.code, message: error.message).response
        queueHead(response, contentLength: response.bodyBytes.count, keepAlive: false, minorVersion: 1)
        queue(response.bodyBytes)
        log(method: "-", path: "-", status: error.status, bytes: response.bodyBytes.count, start: loop.now)
        closeAfterFlush = true
      case .close:
        closeAfterFlush = true
        if !hasPendingOutput { beginClose() }
      case .pauseReading:
        readingPaused = true
        setInterest(interest.subtracting(.read))
      case .resumeReading:
        readingPaused = false
        if !inputEnded { setInterest(interest.union(.read)) }
      }
    }
  }

  private func dispatch(_ head: RequestHead, body: [UInt8]) {
    guard let target = RequestTarget(head.target) else {
      perform([.fail(.badRequest("The request target is not a path."))])
      return
    }
    let keepAlive = head.keepAlive && !loop.core.state.isDraining
    inFlight = InFlight(
      method: head.method, path: target.path, keepAlive: keepAlive, minorVersion: head.minorVersion, start: loop.now)
    switch loop.core.router.resolve(method: head.method, path: target.path) {
    case .answer(let response):
      deliver(response)
    case .immediate(let handler, let parameters):
      deliver(Router.run(handler, routedRequest(head, target, body, parameters)))
    case .eager(let handler, let parameters):
      switch Router.run(handler, routedRequest(head, target, body, parameters)) {
      case .now(let response):
        deliver(response)
      case .later(let rest):
        requestTask = Task(executorPreference: loop.executor) {
          self.deliver(await Router.run(rest))
        }
      }
    case .handler(let handler, let parameters, let placement):
      let request = routedRequest(head, target, body, parameters)
      inFlight?.placement = placement
      switch placement {
      case .eventLoop:
        // Handler and answer on this loop's thread: the task is run by the loop itself.
        requestTask = Task(executorPreference: loop.executor) {
          self.deliver(await Router.run(handler, request))
        }
      case .sharedPool:
        let loop = self.loop
        requestTask = Task {
          let response = await Router.run(handler, request)
          loop.execute { self.deliver(response) }
        }
      }
    }
  }

  /// The request a handler gets: built once the router has chosen it, with its parameters.
  private func routedRequest(
    _ head: RequestHead, _ target: RequestTarget, _ body: [UInt8], _ parameters: [String: String]
  ) -> Request {
    Request(
      method: head.method, path: target.path, query: target.query, headers: head.headers, body: body,
      remoteAddress: remote, parameters: parameters, minorVersion: head.minorVersion, server: loop.core)
  }

  private func deliver(_ response: Response) {
    guard !isClosed, let request = inFlight else { return }
    requestTask = nil
    let keepAlive =
      request.keepAlive && !loop.core.state.isDraining
      && !response.headers.containsToken("close", in: "Connection")
    switch response.body {
    case .bytes(let body):
      deliver(response, to: request, keepAlive: keepAlive, bodyCount: body.count) { queue(body) }
    case .file(let body):
      deliver(response, to: request, keepAlive: keepAlive, bodyCount: body.count) { queue(body) }
    case .eventStream, .openEventStream:
      queueHead(response, contentLength: nil, keepAlive: false, minorVersion: request.minorVersion)
      if request.method == "HEAD" {
        finishStreamResponse()
        return
      }
      lastStreamWrite = loop.now
      machine.releaseInputBuffer()
      let (loop, token) = (self.loop, self.token)
      let stream = EventStream(bufferLimit: loop.core.configuration.eventStreamBufferLimit) {
        loop.scheduleStreamOutput(for: token)
      }
      self.stream = stream
      loop.startedStreaming(token)
      loop.core.state.eventStreamCount.add(1, ordering: .relaxed)
      if case .eventStream(let run) = response.body {
        switch request.placement {
        case .eventLoop:
          streamTask = Task(executorPreference: loop.executor) {
            await run(stream)
            self.endStream()
          }
        case .sharedPool:
          streamTask = Task {
            await run(stream)
            loop.execute { self.endStream() }
          }
        }
      } else if case .openEventStream(let open) = response.body {
        open(stream)
      }
      flush()
    }
  }

  /// Queues an answer with a body of `bodyCount` bytes (`queueBody` queues it, but for
  /// HEAD) and finishes the request.
  private func deliver(
    _ response: Response, to request: InFlight, keepAlive: Bool, bodyCount: Int, queueBody: () -> Void
  ) {
    queueHead(response, contentLength: bodyCount, keepAlive: keepAlive, minorVersion: request.minorVersion)
    if request.method != "HEAD" { queueBody() }
    log(method: request.method, path: request.path, status: response.status, bytes: bodyCount, start: request.start)
    inFlight = nil
    if pendingFile != nil {
      keepAliveAfterFile = keepAlive
      flush()
    } else {
      perform(machine.responseFinished(keepAlive: keepAlive, now: loop.now))
    }
  }

  /// Takes what the stream queued since the last call and writes it.
  func writeStreamOutput() {
    guard !isClosed, let stream else { return }
    let hadOutput = hasPendingOutput
    let queuedBefore = frames.count
    if stream.takeOutbox(into: &frames) { streamFinishing = true }
    if frames.count > queuedBefore {
      lastStreamWrite = loop.now
      if !hadOutput { lastWriteProgress = loop.now }
    }
    flush()
    if streamFinishing && !hasPendingOutput { endStream() }
  }

  /// The stream's handler returned, the client left, or the server is draining.
  private func endStream() {
    guard let stream, !isClosed else { return }
    stream.markClosed()
    streamTask?.cancel()
    streamTask = nil
    finishStreamResponse()
    releaseStream()
  }

  private func finishStreamResponse() {
    if let request = inFlight {
      log(method: request.method, path: request.path, status: 200, bytes: 0, start: request.start)
    }
    inFlight = nil
    perform(machine.responseFinished(keepAlive: false, now: loop.now))
  }

  // MARK: Output

  private var hasPendingOutput: Bool { outputOffset < output.count || pendingFile != nil || !frames.isEmpty }

  private func queue(_ bytes: [UInt8]) {
    assert(pendingFile == nil, "nothing is queued behind a file body")
    if !hasPendingOutput { lastWriteProgress = loop.now }
    output.append(contentsOf: bytes)
  }

  /// Queues a file body after the output, written from where it is kept: never copied
  /// whole.
  private func queue(_ file: FileBody) {
    assert(pendingFile == nil, "nothing is queued behind a file body")
    if !hasPendingOutput { lastWriteProgress = loop.now }
    if file.count > 0 { pendingFile = file }
  }

  private func queueHead(_ response: Response, contentLength: Int?, keepAlive: Bool, minorVersion: Int) {
    assert(pendingFile == nil, "nothing is queued behind a file body")
    if !hasPendingOutput { lastWriteProgress = loop.now }
    ResponseHead.write(
      response, contentLength: contentLength, keepAlive: keepAlive, minorVersion: minorVersion, date: loop.date,
      security: loop.core.securityHeaders, into: &output)
  }

  private func flush() {
    guard writeResponseBytes() else { return }
    if let keepAlive = keepAliveAfterFile {
      // The file body is out: the request is finished, and the next one may be answered.
      keepAliveAfterFile = nil
      perform(machine.responseFinished(keepAlive: keepAlive, now: loop.now))
      return
    }
    guard writeFrames() else { return }
    // Everything is out: release large buffers so idle connections stay small.
    output.removeAll(keepingCapacity: output.capacity <= 4096 && stream == nil)
    outputOffset = 0
    if frames.capacity > 64 { frames = [] }
    if !readWantsWrite { setInterest(interest.subtracting(.write)) }
    if closeAfterFlush && lingerDeadline == nil { beginClose() }
  }

  /// Writes `output`, then the pending file; whether all of it is out (else the connection
  /// waits or closed).
  private func writeResponseBytes() -> Bool {
    while outputOffset < output.count || pendingFile != nil {
      if transport.isTLS, outputOffset == output.count, let file = pendingFile {
        guard takeChunk(of: file) else {
          closeNow()
          return false
        }
      }
      let result: IOResult<Int>
      do {
        result = try output.withUnsafeBytes { buffer throws(SystemError) in
          let head = UnsafeRawBufferPointer(rebasing: buffer[outputOffset...])
          guard let pendingFile, !transport.isTLS else { return try transport.write(fd: fd, head) }
          return try transport.write(fd: fd, head: head, file: pendingFile)
        }
      } catch {
        closeNow()
        return false
      }
      guard case .processed(let count) = result else {
        setInterest(interest.union(.write))
        return false
      }
      let fromOutput = min(count, output.count - outputOffset)
      outputOffset += fromOutput
      if count > fromOutput {
        pendingFile?.advance(by: count - fromOutput)
        if pendingFile?.count == 0 { pendingFile = nil }
      }
      didWrite(count)
    }
    return true
  }

  /// Moves the next chunk of `file` (the pending file body) into the written `output`, for
  /// TLS; false when the file on disk shrank, so the answer cannot keep its
  /// `Content-Length`.
  private func takeChunk(of file: FileBody) -> Bool {
    let chunk = file.slice(0..<min(file.count, Self.tlsFileChunkSize))
    output.removeAll(keepingCapacity: true)
    outputOffset = 0
    output.append(contentsOf: chunk.bytes)
    pendingFile = chunk.count < file.count ? file.slice(chunk.count..<file.count) : nil
    return output.count == chunk.count
  }

  /// Writes the stream's frames, as many per system call as it takes; whether all are out.
  private func writeFrames() -> Bool {
    while !frames.isEmpty {
      let result: IOResult<Int>
      do {
        result = try transport.write(fd: fd, frames, firstOffset: frameOffset)
      } catch {
        closeNow()
        return false
      }
      guard case .processed(var count) = result else {
        setInterest(interest.union(.write))
        return false
      }
      didWrite(count)
      stream?.didWrite(count)
      var written = 0
      while count > 0 {
        let remaining = frames[written].count - frameOffset
        guard count >= remaining else {
          frameOffset += count
          break
        }
        count -= remaining
        frameOffset = 0
        written += 1
      }
      frames.removeFirst(written)
    }
    return true
  }

  private func didWrite(_ count: Int) {
    lastWriteProgress = loop.now
    loop.counters.count(bytesWritten: count)
  }

  private func setInterest(_ new: Interest) {
    guard new != interest, !isClosed else { return }
    interest = new
    loop.updateInterest(fd: fd, token: token, interest: new)
  }

  // MARK: Closing

  /// Closes after the peer has had a chance to read the answer: sends FIN, then drops
  /// whatever it still sends for a short while, so the answer is not lost to a reset.
  private func beginClose() {
    // A TLS session must send close_notify before the socket half-closes; keep it simple
    // and close TLS connections at once.
    // While the server drains, answers say `Connection: close`: with nothing unread there is
    // no reset to fear, and a lingering connection would hold up the drain.
    if inputEnded || transport.isTLS || (loop.core.state.isDraining && !hasUnreadInput) {
      closeNow()
      return
    }
    Glibc.shutdown(fd, Int32(SHUT_WR))
    lingerDeadline = loop.now + Self.lingerTime
    readingPaused = false
    setInterest(.read)
  }

  /// Whether the client sent bytes not read yet.
  private var hasUnreadInput: Bool {
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
  }

  /// Lets go of the stream and its frames, and counts it as ended.
  private func releaseStream() {
    guard stream != nil else { return }
    stream = nil
    frames = []
    frameOffset = 0
    loop.stoppedStreaming(token)
    loop.core.state.eventStreamCount.subtract(1, ordering: .relaxed)
  }

  /// Closes the socket now and ends any stream.
  func closeNow() {
    guard !isClosed else { return }
    isClosed = true
    pendingFile = nil
    keepAliveAfterFile = nil
    requestTask?.cancel()
    requestTask = nil
    stream?.markClosed()
    releaseStream()
    streamTask?.cancel()
    streamTask = nil
    loop.remove(fd: fd, token: token)
    transport.shutdown()
    close(fd)
  }

  /// Counts a finished response and writes its access log line when enabled.
  private func log(method: String, path: String, status: Int, bytes: Int, start: MonotonicInstant) {
    loop.counters.countResponse()
    guard loop.core.configuration.accessLog else { return }
    AccessLog.write(method: method, path: path, status: status, bytes: bytes, duration: loop.now - start)
  }
}
