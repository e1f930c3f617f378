import CSQLite

/// A failed SQLite call: its result code and SQLite's message.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
  /// The extended result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
  public let code: Int32
  public let message: String

  init(code: Int32, connection: OpaquePointer?) {
    self.code = code
    self.message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
  }

  public var description: String { "SQLite error \(code): \(message)" }
}
