import Dispatch
import Synchronization

/// The server's TLS context, which loading the certificate and key again replaces. New
/// connections get sessions of the current context; a session holds a reference to the
/// context it was made from (OpenSSL counts them), so connections already open keep their
/// certificate for as long as they last.
final class ReloadableTLSContext: Sendable {
  /// The two files as they were when last loaded, or refused.
  private struct Files: Equatable {
    var certificate: FileStamp?
    var key: FileStamp?

    init(_ configuration: TLSConfiguration) {
      certificate = FileStamp(path: configuration.certificatePath)
      key = FileStamp(path: configuration.privateKeyPath)
    }
  }

  let configuration: TLSConfiguration
  private let current: Mutex<TLSContext>
  /// Held for the whole of a load, so two reloads never race.
  private let loaded: Mutex<Files>
  private let watch = Mutex<(any DispatchSourceTimer)?>(nil)

  /// Loads the pair.
  /// - Throws: ``TLSError`` when it does not load or does not match.
  init(_ configuration: TLSConfiguration) throws(TLSError) {
    self.configuration = configuration
    // Looked at before loading: a change while loading is seen at the next look.
    let files = Files(configuration)
    current = Mutex(try TLSContext(configuration))
    loaded = Mutex(files)
  }

  /// A server-side session of the current context on the socket `fd`, or `nil` if OpenSSL
  /// cannot allocate one.
  func makeSession(fd: Int32) -> OpaquePointer? {
    current.withLock { $0.makeSession(fd: fd) }
  }

  /// Loads the pair now on disk; new connections get it. On failure the previous pair stays.
  func reload() -> TLSReload {
    loaded.withLock { files in
      files = Files(configuration)
      return load()
    }
  }

  /// Loads the pair again if either file changed since the last load (or refusal).
  func reloadIfChanged() -> TLSReload? {
    loaded.withLock { files in
      let now = Files(configuration)
      guard now != files else { return nil }
      files = now
      return load()
    }
  }

  /// Call with `loaded` held, after looking at the files.
  private func load() -> TLSReload {
    do {
      let context = try TLSContext(configuration)
      current.withLock { $0 = context }
      return .reloaded(certificatePath: configuration.certificatePath)
    } catch {
      return .refused(error)
    }
  }

  /// Looks for a change of the files every `interval` on a background queue, reporting
  /// each reload to `report`, until ``stopWatching()``.
  func startWatching(every interval: Duration, report: @escaping @Sendable (TLSReload) -> Void) {
    let nanoseconds = max(1_000_000, interval.nanosecondsValue)
    watch.withLock { watch in
      watch?.cancel()
      let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
      timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
      timer.setEventHandler { [self] in
        if let outcome = reloadIfChanged() { report(outcome) }
      }
      timer.resume()
      watch = timer
    }
  }

  /// Stops looking at the files.
  func stopWatching() {
    watch.withLock { watch in
      watch?.cancel()
      watch = nil
    }
  }
}
