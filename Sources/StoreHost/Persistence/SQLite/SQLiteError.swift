import CSQLite
import Glibc

/// A failed SQLite call: its result code and SQLite's message.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
  /// The extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
  public let code: Int32
  public let message: String

  init(code: Int32, connection: OpaquePointer?) {
    self.code = code
    var message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    // The operating system's reason behind a failed read or write: "No space left on device".
    if let connection, [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(code & 0xff),
      case let systemError = sqlite3_system_errno(connection), systemError != 0
    {
      message += " (\(String(cString: strerror(systemError))))"
    }
    self.message = message
  }

  public var description: String { "SQLite error \(code): \(message)" }
}
