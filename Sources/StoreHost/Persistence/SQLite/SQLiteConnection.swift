import CSQLite

/// One SQLite connection. Not thread-safe: it is opened, used and closed on one thread.
final class SQLiteConnection {
  let handle: OpaquePointer

  /// Opens or creates the database file at `path`; with `readOnly`, opens an existing file
  /// without ever writing to it.
  init(path: String, readOnly: Bool = false) throws(SQLiteError) {
    var handle: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error = SQLiteError(code: code, connection: handle)
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that return no rows the caller needs.
  func execute(_ sql: String) throws(SQLiteError) {
    try check(sqlite3_exec(handle, sql, nil, nil, nil))
  }

  func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
    return SQLiteStatement(handle: statement!, connection: self)
  }

  /// Throws unless `code` is `SQLITE_OK`.
  func check(_ code: Int32) throws(SQLiteError) {
    guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
  }
}
