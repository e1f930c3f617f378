import CSQLite
import Foundation

/// A prepared statement, reset and rebound for each use.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let connection: SQLiteConnection

  init(handle: OpaquePointer, connection: SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds `values` to the parameters `?1`, `?2`, ... in order.
  func bind(_ values: SQLiteValue...) throws(SQLiteError) {
    // `sqlite3_reset` repeats the error of the previous `step`, which was already thrown.
    sqlite3_reset(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code =
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
        case .text(let text): sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
        case .blob(let data): data.withUnsafeBytes { bindBlob($0, at: index) }
        case .bytes(let bytes): bytes.withUnsafeBytes { bindBlob($0, at: index) }
        }
      try connection.check(code)
    }
  }

  private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
    // A null pointer would bind NULL, not an empty blob.
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
    return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), csqlite_transient())
  }

  /// Advances to the next row: `true` while there is one, `false` when done.
  @discardableResult
  func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw SQLiteError(code: code, connection: connection.handle)
    }
  }

  func integer(at column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  func text(at column: Int32) -> String {
    sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
  }

  func isNull(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  func blob(at column: Int32) -> Data {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }

  /// Runs `body` on the bytes of the blob in `column`, valid only while it runs.
  func withBlob<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let count = Int(sqlite3_column_bytes(handle, column))
    return try body(UnsafeRawBufferPointer(start: count > 0 ? sqlite3_column_blob(handle, column) : nil, count: count))
  }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
  case null
  case integer(Int64)
  case text(String)
  case blob(Data)
  /// A blob bound from an array's bytes, without a copy into `Data` first.
  case bytes([UInt8])
}
