import Glibc

/// How much the `storehost` command says on standard error, least to most severe.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
  case debug, info, warning, error

  var name: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .warning: "warning"
    case .error: "error"
    }
  }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Structured logs: one JSON object per line on standard error, for log collectors.
///
/// Each line is `{"time", "level", "message", ...fields}` with the time in UTC (RFC 3339,
/// milliseconds). Lines below the logger's level are dropped. A line is written with one
/// `write(2)`, so lines from several threads never interleave.
///
/// ```swift
/// let log = Logger(level: .info)
/// log.info("serving", ["port": 8080])
/// ```
struct Logger: Sendable {
  /// A field's value: numbers and booleans stay JSON numbers and booleans; the rest is text.
  typealias Fields = KeyValuePairs<String, any Sendable>

  let level: LogLevel

  func debug(_ message: String, _ fields: Fields = [:]) { log(.debug, message, fields) }
  func info(_ message: String, _ fields: Fields = [:]) { log(.info, message, fields) }
  func warning(_ message: String, _ fields: Fields = [:]) { log(.warning, message, fields) }
  func error(_ message: String, _ fields: Fields = [:]) { log(.error, message, fields) }

  func log(_ level: LogLevel, _ message: String, _ fields: Fields) {
    guard level >= self.level else { return }
    let line = Self.line(time: Self.now(), level: level, message: message, fields: fields)
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  /// The JSON line, newline included; fields come after the fixed keys, in the order given.
  static func line(time: String, level: LogLevel, message: String, fields: Fields) -> String {
    var json = "{\"time\":\(quoted(time)),\"level\":\(quoted(level.name)),\"message\":\(quoted(message))"
    for (key, value) in fields where !["time", "level", "message"].contains(key) {
      json += ",\(quoted(key)):\(encoded(value))"
    }
    return json + "}\n"
  }

  private static func encoded(_ value: any Sendable) -> String {
    switch value {
    case let value as Bool: return value ? "true" : "false"
    case let value as Int: return String(value)
    case let value as Double where value.isFinite: return String(value)
    default: return quoted(String(describing: value))
    }
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Now in UTC, as `2026-01-31T12:34:56.789Z`.
  private static func now() -> String {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    var seconds = spec.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
      + "T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
      + ".\(padded(Int32(spec.tv_nsec / 1_000_000), 3))Z"
  }
}
