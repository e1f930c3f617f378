import CLibPQ
import Foundation

/// One PostgreSQL connection through libpq's blocking API. Not thread-safe: it is opened,
/// used and closed by one dedicated thread at a time, never on Swift's cooperative pool.
///
/// Parameters and results travel in text form; `nil` is SQL `NULL`.
final class PostgresConnection {
  private let handle: OpaquePointer

  /// Connects to `url` (`postgres://user@host:port/db`), waiting at most `connectTimeout`
  /// seconds unless the URL names its own `connect_timeout`.
  init(url: String, connectTimeout: Int = 5) throws(PostgresError) {
    let keywords = ["connect_timeout", "dbname", "application_name"]
    let values = [String(connectTimeout), url, "storehost"]
    let handle = withCStrings(keywords) { keywordPointers in
      withCStrings(values) { valuePointers in
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

  /// Whether the connection still works, as far as libpq knows.
  var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

  /// The socket, for waiting on notifications with `poll`.
  var socket: Int32 { PQsocket(handle) }

  /// Runs one statement (or, without parameters, several separated by semicolons).
  /// - Returns: The rows of the last statement, each column as text or `nil` for `NULL`.
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
    let result: OpaquePointer? =
      if parameters.isEmpty {
        PQexec(handle, sql)
      } else {
        withOptionalCStrings(parameters) { pointers in
          PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
      }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      throw statementError(result)
    }
    return rows(of: result)
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
