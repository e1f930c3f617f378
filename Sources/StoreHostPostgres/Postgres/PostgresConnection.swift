import CLibPQ
import Foundation

/// One PostgreSQL connection through libpq, each statement's answer awaited with a bound. Not thread-safe: it is opened,
/// used and closed by one dedicated thread at a time, never on Swift's cooperative pool.
///
/// Parameters and results travel in text form; `nil` is SQL `NULL`.
final class PostgresConnection {
  /// How long a statement may take by default, on the server (`statement_timeout`) and
  /// here: a database that stops answering (paused, or its host gone) fails a statement
  /// after this long instead of holding its caller.
  static let defaultStatementTimeout: Duration = .seconds(5)

  /// The bounds a connection is made with unless the URL names its own: at most
  /// `connectTimeout` to connect (5 s by default), TCP keepalives that find a dead peer within about 10 s, unacknowledged data
  /// given up after 10 s, and the server's statement timeout.
  static func defaultParameters(statementTimeout: Duration, connectTimeout: Duration) -> [(String, String)] {
    [
      // libpq counts whole seconds, and takes at least 2.
      ("connect_timeout", String(max(2, Int((connectTimeout / .seconds(1)).rounded(.up))))), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
      ("keepalives_count", "2"), ("tcp_user_timeout", "10000"),
      ("options", "-c statement_timeout=\(Int(statementTimeout / .milliseconds(1)))"),
    ]
  }

  private let handle: OpaquePointer
  /// The longest ``execute(_:_:)`` waits for the server's answer.
  private let statementTimeout: Duration
  /// A statement's answer did not come in time: the connection is given up.
  private var timedOut = false
  /// When the job using the connection stops waiting (see ``answering(before:_:)``).
  private var jobDeadline: ContinuousClock.Instant?

  /// Connects to `url` (`postgres://user@host:port/db`) with
  /// ``defaultParameters(statementTimeout:connectTimeout:)`` beneath the URL's own.
  init(
    url: String, statementTimeout: Duration = defaultStatementTimeout, connectTimeout: Duration = .seconds(5)
  ) throws(PostgresError) {
    self.statementTimeout = statementTimeout
    // Keywords before `dbname` are defaults: the URL it expands to overrides them.
    let parameters = Self.defaultParameters(statementTimeout: statementTimeout, connectTimeout: connectTimeout) + [
      ("dbname", url), ("application_name", "storehost"),
    ]
    let handle = withCStrings(parameters.map(\.0)) { keywordPointers in
      withCStrings(parameters.map(\.1)) { valuePointers in
        PQconnectdbParams(keywordPointers, valuePointers, 1)
      }
    }
    guard let handle else {
      throw PostgresError(message: "libpq could not allocate a connection", isConnectionFailure: true)
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let error = PostgresError(message: String(cString: PQerrorMessage(handle)), isConnectionFailure: true)
      PQfinish(handle)
      throw error
    }
    // Silence NOTICE messages such as "relation already exists, skipping".
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
    self.handle = handle
  }

  deinit {
    PQfinish(handle)
  }

  /// Whether the connection still works, as far as libpq knows, and answered in time.
  var isHealthy: Bool { !timedOut && PQstatus(handle) == CONNECTION_OK }

  /// The socket, for waiting on notifications with `poll`.
  var socket: Int32 { PQsocket(handle) }

  /// Runs one statement (or, without parameters, several separated by semicolons), waiting
  /// at most the statement timeout for the answer: past it the connection is given up
  /// (``isHealthy`` turns false) and this throws a connection failure that ``PostgresError/timedOut``.
  /// - Returns: The rows of the last statement, each column as text or `nil` for `NULL`.
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
    let sent =
      if parameters.isEmpty {
        PQsendQuery(handle, sql)
      } else {
        withOptionalCStrings(parameters) { pointers in
          PQsendQueryParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
      }
    guard sent == 1 else { throw statementError(nil) }
    let ownDeadline = ContinuousClock.now + statementTimeout
    try waitForAnswer(until: jobDeadline.map { min($0, ownDeadline) } ?? ownDeadline)
    var last: OpaquePointer?
    var failure: PostgresError?
    while let result = PQgetResult(handle) {
      let status = PQresultStatus(result)
      if failure == nil, status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK {
        failure = statementError(result)
      }
      PQclear(last)
      last = result
    }
    defer { PQclear(last) }
    if let failure { throw failure }
    return rows(of: last)
  }

  /// Runs `body`, whose statements wait for their answers until `deadline` at most (and
  /// their own timeout): a job's caller stops waiting then, time in the queue included.
  func answering<T>(before deadline: ContinuousClock.Instant?, _ body: () throws -> T) rethrows -> T {
    jobDeadline = deadline
    defer { jobDeadline = nil }
    return try body()
  }

  /// Reads the server's answer until all of it is here, or gives the connection up at `deadline`.
  private func waitForAnswer(until deadline: ContinuousClock.Instant) throws(PostgresError) {
    while PQisBusy(handle) == 1 {
      let remaining = deadline - .now
      guard remaining > .zero else {
        timedOut = true
        throw PostgresError.timedOut(after: statementTimeout)
      }
      var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(remaining / .milliseconds(1), Double(Int32.max)).rounded(.up))
      guard poll(&descriptor, 1, max(1, milliseconds)) >= 0 || errno == EINTR else {
        throw PostgresError(message: String(cString: strerror(errno)), isConnectionFailure: true)
      }
      guard PQconsumeInput(handle) == 1 else {
        throw PostgresError(message: String(cString: PQerrorMessage(handle)), isConnectionFailure: true)
      }
    }
  }

  /// `value` as an SQL string literal, quoted and escaped for this connection, for the few
  /// statements sent as several at once (which take no parameters).
  func literal(_ value: String) throws(PostgresError) -> String {
    guard let escaped = PQescapeLiteral(handle, value, value.utf8.count) else {
      throw PostgresError(message: String(cString: PQerrorMessage(handle)), isConnectionFailure: false)
    }
    defer { PQfreemem(escaped) }
    return String(cString: escaped)
  }

  /// Reads what the server sent and returns the notifications received, oldest first.
  func takeNotifications() throws(PostgresError) -> [(channel: String, payload: String)] {
    guard PQconsumeInput(handle) == 1 else {
      throw PostgresError(message: String(cString: PQerrorMessage(handle)), isConnectionFailure: true)
    }
    var notifications: [(String, String)] = []
    while let notification = PQnotifies(handle) {
      notifications.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
      PQfreemem(notification)
    }
    return notifications
  }

  private func rows(of result: OpaquePointer?) -> [[String?]] {
    let rowCount = PQntuples(result)
    let columnCount = PQnfields(result)
    return (0..<rowCount).map { row in
      (0..<columnCount).map { column in
        PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
      }
    }
  }

  private func statementError(_ result: OpaquePointer?) -> PostgresError {
    let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
    let sqlState = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
    return PostgresError(
      message: message.isEmpty ? String(cString: PQerrorMessage(handle)) : message,
      sqlState: sqlState,
      isConnectionFailure: PQstatus(handle) != CONNECTION_OK)
  }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
  withOptionalCStrings(strings + [nil], body)
}

/// Calls `body` with an array of C strings (`nil` stays a null pointer) that live for the call.
private func withOptionalCStrings<R>(
  _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
) -> R {
  let copies = strings.map { $0.map { UnsafePointer(strdup($0)!) } }
  defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
  return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
